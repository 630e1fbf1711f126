/**
 * Writing answers: stdout carries data, stderr messages. On a TTY the default format is a table with a
 * one-line footer; piped, the default is JSON, the envelope exactly.
 */
import type { RouteSpec } from '../contract/route.js';
import type { ErrorEnvelope, SuccessEnvelope } from '../contract/types.js';
import type { IO } from '../io.js';

import type { Format } from './types.js';

export type { Format } from './types.js';
export const FORMATS: readonly Format[] = ['table', 'json', 'ndjson', 'csv'];


/** Colour on only for a TTY, unless NO_COLOR / --no-color, or FORCE_COLOR. https://no-color.org */
export function colorEnabled(env: Record<string, string | undefined>, isTTY: boolean, noColorFlag: boolean): boolean {
  if (noColorFlag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return isTTY;
}

export function defaultFormat(io: IO): Format {
  return io.stdoutIsTTY ? 'table' : 'json';
}

const ESC = '\u001b[';
export const paint = {
  bold: (s: string, on: boolean) => (on ? `${ESC}1m${s}${ESC}22m` : s),
  dim: (s: string, on: boolean) => (on ? `${ESC}2m${s}${ESC}22m` : s),
  red: (s: string, on: boolean) => (on ? `${ESC}31m${s}${ESC}39m` : s),
  yellow: (s: string, on: boolean) => (on ? `${ESC}33m${s}${ESC}39m` : s),
  cyan: (s: string, on: boolean) => (on ? `${ESC}36m${s}${ESC}39m` : s),
};

/** A human one-liner for an error envelope (stderr, terminal mode). */
export function errorLine(env: ErrorEnvelope, color: boolean): string {
  const e = env.error;
  // The published service's 500 carries a message and no code (GOVDATA-NOTES): the message alone then.
  let s = e.code ? `${paint.red('error', color)} ${paint.bold(e.code, color)}: ${e.message}` : `${paint.red('error', color)}: ${e.message}`;
  if (e.details?.length) {
    s += e.details.map((d) => `\n  - ${d.field}: ${d.code}: ${d.message}`).join('');
  }
  return `${s}\n`;
}

export interface Footer {
  source: 'live' | 'local';
  credits?: number;
}

/** `1 record`, `2 records`, `0 records`. */
export const records = (n: number): string => `${n} record${n === 1 ? '' : 's'}`;

export function footerLine(env: SuccessEnvelope, route: RouteSpec | undefined, count: number | undefined, f: Footer): string {
  const parts: string[] = [];
  const p = env.pagination ?? (getInner(env) as SuccessEnvelope['pagination']);
  if (p && p.total === 0) parts.push('0 records');
  else if (p) {
    const totalPages = p.total_pages ?? Math.max(1, Math.ceil(p.total / p.per_page));
    parts.push(`page ${p.page} of ${totalPages}`);
    parts.push(records(p.total));
  } else if (count !== undefined) parts.push(records(count));
  parts.push(`source: ${f.source}`);
  if (f.credits !== undefined) parts.push(`credits left ${f.credits}`);
  const asOf = env.meta?.as_of;
  if (typeof asOf === 'string') parts.push(`as of ${asOf}`);
  void route;
  return parts.join(' · ');
}

function getInner(env: SuccessEnvelope): unknown {
  const d = env.data as Record<string, unknown> | null;
  return d && typeof d === 'object' && !Array.isArray(d) ? d.pagination : undefined;
}

type TableCtor = new (opts: Record<string, unknown>) => { push(...rows: unknown[]): void; toString(): string };
let TableClass: TableCtor | undefined;
export async function table(): Promise<TableCtor> {
  if (!TableClass) TableClass = ((await import('cli-table3')) as unknown as { default: TableCtor }).default;
  return TableClass;
}

/**
 * Column widths that fit `columns`: natural widths (longest cell + padding), then the widest column is
 * narrowed one step at a time (cells wrap) until the table fits or every column is at its minimum.
 */
export function fitWidths(natural: number[], columns: number, min = 8): number[] {
  const w = [...natural];
  const total = () => w.reduce((a, b) => a + b, 0) + w.length + 1; // borders
  while (total() > columns) {
    let i = 0;
    for (let j = 1; j < w.length; j++) if (w[j]! > w[i]!) i = j;
    if (w[i]! <= min) break;
    w[i]!--;
  }
  return w;
}
