/**
 * Checks of the CLI's output shared by test/kit/ (on the test-only example domain) and the domains' own
 * output tests: a CSV read back by DuckDB's strict CSV reader, and a table's measure column at a width.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { expect, it } from 'vitest';
import { runCli } from './cli.js';

/** The CSV read by DuckDB (every value as text, NULL for an empty cell), header and rows. */
export async function readCsvStrict(dir: string, text: string): Promise<{ header: string[]; rows: Array<Record<string, string | null>> }> {
  const file = join(dir, `read-${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(file, text);
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    const r = await c.runAndReadAll(`SELECT * FROM read_csv($1, header = true, all_varchar = true, strict_mode = true, auto_detect = true, delim = ',', quote = '"')`, [file]);
    return { header: r.columnNames(), rows: r.getRowObjects() as Array<Record<string, string | null>> };
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

/** The same `api GET path --all` call as CSV and as NDJSON records. */
export async function csvAndRecords(path: string, env: Record<string, string | undefined>): Promise<{ csv: string; records: any[] }> {
  const args = ['api', 'GET', path, '--all', '--source', 'local'];
  const csv = await runCli([...args, '--format', 'csv'], { env });
  const nd = await runCli([...args, '--format', 'ndjson'], { env });
  expect([csv.code, nd.code, csv.stderr]).toEqual([0, 0, '']);
  return { csv: csv.stdout, records: nd.stdout.trim().split('\n').map((l) => JSON.parse(l)) };
}

/** A record's value as the CSV must hold it: null for null/absent, numbers compared as numbers. */
export const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

type Rec = Record<string, unknown>;
export interface MeasureCase { args: string[]; measure: string; value: (r: Rec) => string }

const lines = (s: string) => s.split('\n');
const widest = (s: string) => Math.max(...lines(s).map((l) => [...l].length));

async function records(args: string[], env: Record<string, string | undefined>): Promise<Rec[]> {
  const r = await runCli([...args, '--format', 'json', '--source', 'local'], { env });
  expect(r.stderr).toBe('');
  const data = JSON.parse(r.stdout).data as Rec[] | { transactions: Rec[] };
  return Array.isArray(data) ? data : data.transactions;
}

/**
 * Issue 28: a terminal table keeps the measure its route exists for (RouteSpec.measures) at 80 and 100
 * columns, one line a record, and `--wide` never prints a line wider than the terminal (a record view).
 * The values looked for come from the same command's `--format json` answer.
 */
export function measureTests(cases: readonly MeasureCase[], env: () => Record<string, string | undefined>): void {
  for (const c of cases) {
    for (const columns of [80, 100]) {
      it(`${c.args.slice(0, 3).join(' ')}: ${c.measure} at ${columns} columns`, async () => {
        const recs = await records(c.args, env());
        expect(recs.length).toBeGreaterThan(1);
        const r = await runCli([...c.args, '--source', 'local'], { env: env(), tty: true, columns });
        expect(r.code).toBe(0);
        expect(widest(r.stdout)).toBeLessThanOrEqual(columns);
        const header = lines(r.stdout).find((l) => l.includes('│'))!;
        const cells = header.split('│').map((s) => s.trim());
        // a table too wide for the terminal heads a dotted column by its last part when that is unique
        const shortLabel = c.measure.slice(c.measure.lastIndexOf('.') + 1);
        expect(cells.includes(c.measure) || cells.includes(shortLabel), header).toBe(true);
        const col = cells.includes(c.measure) ? cells.indexOf(c.measure) : cells.indexOf(shortLabel);
        // One line a record (the measure is cut, not wrapped): row i's measure cell is record i's value,
        // whole, or its beginning followed by an ellipsis.
        const body = lines(r.stdout).filter((l) => l.startsWith('│') && l !== header);
        const shown = body.map((l) => l.split('│')[col]!.trim());
        expect(shown.length).toBeGreaterThanOrEqual(recs.length);
        recs.forEach((rec, i) => {
          const want = c.value(rec);
          const got = shown[i]!;
          if (got.endsWith('…')) expect(want.startsWith(got.slice(0, -1))).toBe(true);
          else expect(got).toBe(want);
        });
      });
      it(`${c.args.slice(0, 3).join(' ')} --wide at ${columns} columns: a record view, no line wider`, async () => {
        const recs = await records(c.args, env());
        const r = await runCli([...c.args, '--wide', '--source', 'local'], { env: env(), tty: true, columns });
        expect(r.code).toBe(0);
        expect(widest(r.stdout)).toBeLessThanOrEqual(columns);
        // Every record's every field is there: as many `measure:` lines as records.
        const label = new RegExp(`^${c.measure.replace('.', '\\.')}:`, 'm');
        expect(lines(r.stdout).filter((l) => label.test(l))).toHaveLength(recs.length);
      });
    }
  }
}
