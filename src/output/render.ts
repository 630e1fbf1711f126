/**
 * Writing answers: stdout carries data, stderr messages. On a TTY the default format is a table with a
 * one-line footer; piped, the default is JSON, the envelope exactly.
 */
import type { RouteSpec } from '../contract/route.js';
import type { CallResult, ErrorEnvelope, SuccessEnvelope } from '../contract/types.js';
import { isErrorEnvelope } from '../contract/types.js';
import type { IO } from '../context.js';
import { cell, flatten, pickEnvelope, recordsOf, toCsv, type Row } from './records.js';

export type Format = 'table' | 'json' | 'ndjson' | 'csv';
export const FORMATS: readonly Format[] = ['table', 'json', 'ndjson', 'csv'];

export interface RenderOptions {
  format: Format;
  fields?: string[];
  color: boolean;
  /** Custom TTY renderer for this command (take-home table, charts). */
  custom?: (env: SuccessEnvelope, opts: { color: boolean; columns: number }) => string | undefined | Promise<string | undefined>;
}

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
  let s = `${paint.red('error', color)} ${paint.bold(e.code, color)}: ${e.message}`;
  if (e.details?.length) {
    s += e.details.map((d) => `\n  - ${d.field}: ${d.code}: ${d.message}`).join('');
  }
  return `${s}\n`;
}

export interface Footer {
  source: 'live' | 'local';
  credits?: number;
}

export function footerLine(env: SuccessEnvelope, route: RouteSpec | undefined, count: number | undefined, f: Footer): string {
  const parts: string[] = [];
  const p = env.pagination ?? (getInner(env) as SuccessEnvelope['pagination']);
  if (p) {
    const totalPages = p.total_pages ?? Math.max(1, Math.ceil(p.total / p.per_page));
    parts.push(`page ${p.page} of ${totalPages}`);
    parts.push(`${p.total} records`);
  } else if (count !== undefined) parts.push(`${count} records`);
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

/** No rule between rows: records read as a list. */
const COMPACT = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

type TableCtor = new (opts: Record<string, unknown>) => { push(...rows: unknown[]): void; toString(): string };
let TableClass: TableCtor | undefined;
async function table(): Promise<TableCtor> {
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

const displayWidth = (s: string): number => [...s.replace(/\u001b\[[0-9;]*m/g, '')].length;

export async function renderTable(rows: readonly Row[], color: boolean, fields?: string[], columns = 0): Promise<string> {
  const Table = await table();
  const flat = rows.map((r) => flatten(r));
  let cols = fields && fields.length ? fields : [];
  if (cols.length === 0) {
    const seen = new Set<string>();
    for (const r of flat) for (const k of Object.keys(r)) if (!seen.has(k)) (seen.add(k), cols.push(k));
  }
  if (cols.length === 0) cols = ['value'];
  const body = flat.map((r) => cols.map((c) => cell(r[c])));
  let colWidths: number[] | undefined;
  if (columns > 0) {
    const natural = cols.map((c, i) => Math.max(displayWidth(c), ...body.map((row) => Math.max(...row[i]!.split('\n').map(displayWidth)))) + 2);
    const fitted = fitWidths(natural, columns);
    if (fitted.some((w, i) => w !== natural[i])) colWidths = fitted;
  }
  const t = new Table({
    head: cols.map((c) => paint.bold(c, color)),
    style: { head: [], border: [] },
    chars: COMPACT,
    wordWrap: true,
    ...(colWidths ? { colWidths } : {}),
  });
  for (const row of body) t.push(row);
  return `${t.toString()}\n`;
}

export async function renderKeyValue(obj: unknown, color: boolean): Promise<string> {
  const Table = await table();
  const t = new Table({ style: { head: [], border: [] }, wordWrap: true, chars: COMPACT });
  for (const [k, v] of Object.entries(flatten(obj))) t.push([paint.bold(k, color), cell(v)]);
  return `${t.toString()}\n`;
}

/**
 * Write one answer in the chosen format. Error envelopes: JSON formats print the envelope to stdout
 * (scripts switch on `.error.code`); the table format prints a one-line message to stderr.
 */
export async function writeAnswer(
  io: IO,
  result: CallResult,
  route: RouteSpec | undefined,
  opts: RenderOptions,
): Promise<void> {
  const env = pickEnvelope(result.envelope, opts.fields, route);
  if (isErrorEnvelope(env)) {
    if (opts.format === 'table') io.stderr.write(errorLine(env, opts.color));
    else io.stdout.write(`${JSON.stringify(env)}\n`);
    return;
  }
  switch (opts.format) {
    case 'json':
      io.stdout.write(`${io.stdoutIsTTY ? JSON.stringify(env, null, 2) : JSON.stringify(env)}\n`);
      return;
    case 'ndjson': {
      const recs = recordsOf(env, route);
      io.stdout.write(recs ? recs.map((r) => `${JSON.stringify(r)}\n`).join('') : `${JSON.stringify(env.data)}\n`);
      return;
    }
    case 'csv': {
      const recs = recordsOf(env, route) ?? [env.data as Row];
      io.stdout.write(toCsv(recs, opts.fields));
      return;
    }
    case 'table': {
      const custom = await opts.custom?.(env, { color: opts.color, columns: io.columns });
      const recs = recordsOf(env, route);
      let out: string;
      if (custom !== undefined) out = custom;
      else if (recs) out = recs.length ? await renderTable(recs, opts.color, opts.fields, io.columns) : `${paint.dim('(no records)', opts.color)}\n`;
      else out = await renderKeyValue(env.data, opts.color);
      io.stdout.write(out);
      const warnings = env.meta?.warnings;
      if (Array.isArray(warnings)) for (const w of warnings) io.stderr.write(`${paint.yellow('warning', opts.color)} ${cell(w)}\n`);
      io.stdout.write(
        `${paint.dim(footerLine(env, route, recs?.length, { source: result.source, ...(result.credits?.remaining !== undefined ? { credits: result.credits.remaining } : {}) }), opts.color)}\n`,
      );
      return;
    }
  }
}
