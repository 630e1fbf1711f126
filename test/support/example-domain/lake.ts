/**
 * The example datasets synced into a mirror through the real framework (`--from` local files), for the
 * export tests: example-records from test/fixtures/example/records-complete.csv (300 records, 2023-2024),
 * example-events from three INVENTED day files written here (2026-10-30, 2026-10-31, 2026-11-01: records
 * 1-10, 11-25 and 26-30 dated on their day; two months).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syncDataset } from '../../../src/sync-runner.js';
import { recordsCsv } from './records-gen.js';

/** The datasets buildExampleLake syncs. */
export const EXAMPLE_LAKE_DATASETS: readonly string[] = ['example-records', 'example-events'];

export const RECORDS_FILE = join(import.meta.dirname, '..', '..', 'fixtures', 'example', 'records-complete.csv');
export const EVENT_DAYS: ReadonlyArray<{ day: string; from: number; to: number }> = [
  { day: '2026-10-30', from: 1, to: 10 },
  { day: '2026-10-31', from: 11, to: 25 },
  { day: '2026-11-01', from: 26, to: 30 },
];

/** A day file of records from..to, each dated on `day`. */
export const dayFile = (day: string, from: number, to: number): string => recordsCsv(from, to).replace(/,\d{4}-\d{2}-\d{2},/g, `,${day},`);

export async function buildExampleLake(mirror: string, src: string): Promise<void> {
  mkdirSync(src, { recursive: true });
  for (const d of EVENT_DAYS) writeFileSync(join(src, `events-${d.day}.csv`), dayFile(d.day, d.from, d.to));
  const o = { mirrorDir: mirror, cacheDir: join(src, 'cache'), env: {} };
  await Promise.all([syncDataset('example-records', { ...o, from: RECORDS_FILE }), syncDataset('example-events', { ...o, from: src })]);
}
