/** Plain-JS reading of the Price Paid fixture files, independent of DuckDB, for expected values in tests. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsvLine } from '../support/mirror-helper.js';

export { parseCsvLine };

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'property', 'land-registry-ppd');
export const fixture = (name: string) => join(FIXTURES, name);

export interface PpdRow {
  id: string; // lowercase, no braces
  price: number;
  date: string; // YYYY-MM-DD
  postcode: string; // '' when none
  type: string; // D S T F O
  oldNew: string;
  duration: string;
  paon: string;
  saon: string;
  street: string;
  locality: string;
  town: string;
  district: string;
  county: string;
  category: string;
  status: string;
}

export function readPpd(name: string): PpdRow[] {
  return readFileSync(fixture(name), 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const f = parseCsvLine(l);
      if (f.length !== 16) throw new Error(`expected 16 fields: ${l}`);
      return {
        id: f[0]!.replace(/[{}]/g, '').toLowerCase(),
        price: Number(f[1]),
        date: f[2]!.slice(0, 10),
        postcode: f[3]!,
        type: f[4]!,
        oldNew: f[5]!,
        duration: f[6]!,
        paon: f[7]!,
        saon: f[8]!,
        street: f[9]!,
        locality: f[10]!,
        town: f[11]!,
        district: f[12]!,
        county: f[13]!,
        category: f[14]!,
        status: f[15]!,
      };
    });
}

/** Apply update rows (A/C/D by id, last row per id wins) to a list, as the mirror should. */
export function applyUpdate(base: PpdRow[], update: PpdRow[]): PpdRow[] {
  const last = new Map<string, PpdRow>();
  for (const u of update) last.set(u.id, u);
  const out = base.filter((r) => !last.has(r.id));
  for (const u of last.values()) if (u.status === 'A' || u.status === 'C') out.push(u);
  return out;
}

/**
 * A larger file in the real format (fixture rows repeated with fresh ids), for loads that take a while.
 * Written straight into one buffer (no per-row string work): 600,000 rows (~100 MB) take a fraction of
 * a second to make.
 */
const HEX = Buffer.from('0123456789ABCDEF');

export function bigFile(rows: number): Buffer {
  if (rows > 2 ** 32) throw new Error('bigFile: at most 2^32 rows');
  const lines = readFileSync(fixture('pp-complete.csv'), 'utf8').trim().split('\n');
  // Each row: "{AAAAAAAA-0000-4000-8000-<12 hex digits>}" then the rest of a fixture line after its id.
  const rests = lines.map((l) => Buffer.from(l.replace(/^"\{[^}]+\}"/, '') + '\n'));
  const head = Buffer.from('"{AAAAAAAA-0000-4000-8000-');
  const idLen = head.length + 12 + 2; // hex digits, then }"
  let size = 0;
  for (let i = 0; i < rows; i++) size += idLen + rests[i % rests.length]!.length;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = 0; i < rows; i++) {
    at += head.copy(out, at);
    for (let d = 11; d >= 0; d--) out[at + 11 - d] = d < 8 ? HEX[(i >>> (4 * d)) & 15]! : 0x30;
    at += 12;
    out[at++] = 0x7d; // }
    out[at++] = 0x22; // "
    at += rests[i % rests.length]!.copy(out, at);
  }
  return out;
}
