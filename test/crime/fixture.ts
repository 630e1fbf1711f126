/**
 * The crime test archives: zips in data.police.uk's layout (`YYYY-MM/YYYY-MM-<force>-street.csv`, `-outcomes.csv`)
 * built here with yazl from the REAL files in test/fixtures/crime (see its README). Only the zips are generated;
 * the members are the real bytes, except the files `variant` writes, which say what they change.
 * Rows are read here with a plain CSV split, independently of the sync's DuckDB read_csv.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCsv } from '../support/mirror-helper.js';
import { buildZip } from '../support/zip.js';

export const CRIME_FIXTURES = join(__dirname, '..', 'fixtures', 'crime');
export type CsvRow = Record<string, string>;

export const FILES = {
  city2401old: '2024-01-city-of-london-street.committed-2024-03-04.csv',
  city2401new: '2024-01-city-of-london-street.committed-2025-09-07.csv',
  surrey2401: '2024-01-surrey-street.csv',
  met2401outcomes: '2024-01-metropolitan-outcomes.csv',
  city2505: '2025-05-city-of-london-street.csv',
} as const;

export const bytesOf = (f: string): Buffer => readFileSync(join(CRIME_FIXTURES, f));
export const rowsOf = (f: string | Buffer): CsvRow[] => readCsv(Buffer.isBuffer(f) ? f.toString('utf8') : bytesOf(f).toString('utf8'));

/** One archive member: its path in the zip and its bytes. */
export interface Member {
  name: string;
  data: Buffer;
}
export const member = (month: string, force: string, kind: 'street' | 'outcomes', data: Buffer): Member => ({
  name: `${month}/${month}-${force}-${kind}.csv`,
  data,
});

export function archive(members: Member[]): Promise<Buffer> {
  return buildZip(members.map((m) => ({ name: m.name, data: m.data })));
}

/** The 2024-01 month as first published (downloaded early 2024): City and Surrey street files, Met outcomes. */
export const month2401 = (city: 'old' | 'new'): Member[] => [
  member('2024-01', 'city-of-london', 'street', bytesOf(city === 'old' ? FILES.city2401old : FILES.city2401new)),
  member('2024-01', 'surrey', 'street', bytesOf(FILES.surrey2401)),
  member('2024-01', 'metropolitan', 'outcomes', bytesOf(FILES.met2401outcomes)),
];
export const month2505 = (data: Buffer = bytesOf(FILES.city2505)): Member[] => [member('2025-05', 'city-of-london', 'street', data)];

/**
 * GENERATED variant of the real 2025-05 City file: the Crime type of its first row replaced by `label` (a label
 * the map does not know), and its first anti-social-behaviour row written a second time straight after itself
 * (two incidents at one snap point, as the publisher writes them: no ID, identical rows). CRLF kept.
 */
export function variant2505(label: string): { data: Buffer; changedId: string; asbLine: string } {
  const lines = bytesOf(FILES.city2505).toString('utf8').split('\r\n');
  const first = lines[1]!.split(',');
  const typeIdx = 9;
  first[typeIdx] = label;
  lines[1] = first.join(',');
  const asb = lines.findIndex((l, i) => i > 0 && l.startsWith(','));
  lines.splice(asb + 1, 0, lines[asb]!);
  return { data: Buffer.from(lines.join('\r\n')), changedId: first[0]!, asbLine: lines[asb]! };
}

/** Mean Earth radius, km (IUGG), and an own haversine: the test's independent distance. */
export function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const toRad = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(toRad(lat2 - lat1) / 2) ** 2 + Math.cos(toRad(lat1)) * Math.cos(toRad(lat2)) * Math.sin(toRad(lng2 - lng1) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}

export function countBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of xs) m.set(key(x), (m.get(key(x)) ?? 0) + 1);
  return m;
}
