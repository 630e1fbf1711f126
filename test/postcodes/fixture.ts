/**
 * Independent readings of the postcode fixtures (a small CSV reader of its own, not the sync's DuckDB), the
 * generated August 2026 edition built into a zip as the ONS ships it (Data/ national CSV, Data/multi_csv/,
 * Documents/ lookups), and the ArcGIS search answer that lists it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildZip } from '../support/zip.js';

export const FIXTURES = join(__dirname, '..', 'fixtures', 'postcodes');
export const REAL_2024 = join(FIXTURES, 'ONSPD-2024-layout-AB1-and-special-rows.csv');
export const REAL_NOV_2025 = join(FIXTURES, 'ONSPD-NOV-2025-layout-4-rows.csv');
export const REAL_AUG_2024 = join(FIXTURES, 'ONSPD-AUG-2024-layout-4-rows.csv');
export const GEN_2026 = join(FIXTURES, 'GENERATED-ONSPD_AUG_2026');

export function parseCsv(text: string): Array<Record<string, string>> {
  const lines = text.split(/\r?\n/).filter((l) => l !== '');
  const cells = (l: string) => l.split(',').map((c) => c.replace(/^"|"$/g, ''));
  const header = cells(lines[0]!);
  return lines.slice(1).map((l) => Object.fromEntries(cells(l).map((c, i) => [header[i]!, c])));
}
export const rowsOf = (path: string) => parseCsv(readFileSync(path, 'utf8'));

/** The generated edition as a zip: the national CSV, a split file under multi_csv/ (must not be loaded), the lookups. */
export async function edition2026Zip(): Promise<Buffer> {
  const docs = readdirSync(join(GEN_2026, 'Documents'));
  return buildZip([
    { name: 'Data/ONSPD_AUG_2026_UK.csv', data: readFileSync(join(GEN_2026, 'Data', 'ONSPD_AUG_2026_UK.csv')) },
    { name: 'Data/multi_csv/ONSPD_AUG_2026_UK_LS.csv', data: readFileSync(join(GEN_2026, 'Data', 'ONSPD_AUG_2026_UK_LS.multi_csv.csv')) },
    ...docs.map((d) => ({ name: `Documents/${d}`, data: readFileSync(join(GEN_2026, 'Documents', d)) })),
    { name: 'User Guide/README.txt', data: 'not data' },
  ]);
}

/** An ArcGIS search answer: the newest edition by name is AUG 2026 (the later of its two items); titles mislead. */
export function searchAnswer(): string {
  return JSON.stringify({
    total: 5,
    results: [
      { id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', name: 'NSPL_AUG_2026.zip', title: 'ONS Postcode Directory (August 2026)', modified: 1790000000000 },
      { id: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', name: 'ONSPD_MAY_2026.zip', title: 'ONS Postcode Directory (latest)', modified: 1795000000000 },
      { id: 'cccccccccccccccccccccccccccccccc', name: 'ONSPD_AUG_2026.zip', title: 'ONSPD May 2026', modified: 1786000000000 },
      { id: '3080229224424c9cb53c0b48f5a64d27', name: 'ONSPD_AUG_2026.zip', title: 'ONS Postcode Directory (August 2026) re-issue', modified: 1787000000000 },
      { id: 'dddddddddddddddddddddddddddddddd', name: 'ONSPD_AUG_2026_UK.csv', title: 'ONS Postcode Directory', modified: 1799000000000 },
    ],
  });
}
