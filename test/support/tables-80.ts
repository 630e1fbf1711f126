/**
 * Checks of a table at 80 columns against the `--format json` answer (issue 37, tables at 80 columns):
 * shared by test/cli/tables-80.test.ts and the domains' own cases (test/<domain>/tables-80.test.ts).
 */
import { expect } from 'vitest';
import { runCli } from './cli.js';

export const COLUMNS = 80;

export type Rec = Record<string, unknown>;
export const at = (r: unknown, path: string): unknown => path.split('.').reduce<unknown>((o, k) => (o !== null && typeof o === 'object' ? (o as Rec)[k] : undefined), r);
export const text = (v: unknown) => (v === null || v === undefined ? '' : Array.isArray(v) ? v.join(', ') : String(v));
export const widest = (s: string) => Math.max(0, ...s.split('\n').map((l) => [...l].length));
export const last = (c: string) => c.slice(c.lastIndexOf('.') + 1);
export const flat = (o: Rec, prefix = '', out: Rec = {}): Rec => {
  for (const [k, v] of Object.entries(o)) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) flat(v as Rec, `${prefix}${k}.`, out);
    else out[`${prefix}${k}`] = v;
  }
  return out;
};

/** A shown cell is the value whole, or its beginning followed by an ellipsis. */
export function sameOrCut(shown: string, want: string): void {
  if (shown.endsWith('…')) expect(want.startsWith(shown.slice(0, -1)), `${shown} is not a cut of ${want}`).toBe(true);
  else expect(shown).toBe(want);
}

export async function both(fx: { env: () => Record<string, string> }, args: string[]) {
  const table = await runCli([...args, '--source', 'local', '--format', 'table'], { env: fx.env(), tty: true, columns: COLUMNS });
  const json = await runCli([...args, '--source', 'local', '--format', 'json'], { env: fx.env() });
  expect([table.code, json.code, table.stderr.startsWith('error')]).toEqual([0, 0, false]);
  return { table, answer: JSON.parse(json.stdout) as { data: unknown } };
}

/**
 * The box table's column `name` (header cell `name` or its last dotted part): the non-empty cells in
 * order, which must be the records' non-empty values in order (a measure is one line a record).
 */
export function checkColumn(stdout: string, records: Rec[], name: string): void {
  const lines = stdout.split('\n');
  const header = lines.find((l) => l.startsWith('│'))!;
  const cells = header.split('│').map((s) => s.trim());
  const col = cells.includes(name) ? cells.indexOf(name) : cells.indexOf(last(name));
  expect(col, `${name} shown in ${header}`).toBeGreaterThan(0);
  const tableEnd = lines.findIndex((l) => l.startsWith('└'));
  const shown = lines.slice(lines.indexOf(header) + 1, tableEnd).map((l) => l.split('│')[col]!.trim()).filter((s) => s !== '');
  const want = records.map((r) => text(at(r, name))).filter((s) => s !== '');
  expect(shown).toHaveLength(want.length);
  shown.forEach((s, i) => sameOrCut(s, want[i]!));
}
