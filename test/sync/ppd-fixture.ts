/** Plain-JS reading of the Price Paid fixture files, independent of DuckDB, for expected values in tests. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'upstream', 'land-registry-ppd');
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

/** Parse one CSV line with double-quoted fields ("" escapes a quote). */
export function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let s = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) throw new Error(`unterminated quote in ${line}`);
        s += line.slice(i, q);
        if (line[q + 1] === '"') {
          s += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(s);
      if (line[i] === ',') i++;
      else break;
    } else {
      const c = line.indexOf(',', i);
      if (c < 0) {
        out.push(line.slice(i));
        break;
      }
      out.push(line.slice(i, c));
      i = c + 1;
    }
  }
  return out;
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

/** A larger file in the real format (fixture rows repeated with fresh ids), for loads that take a while. */
export function bigFile(rows: number): Buffer {
  const lines = readFileSync(fixture('pp-complete.csv'), 'utf8').trim().split('\n');
  const outLines: string[] = [];
  for (let i = 0; i < rows; i++) {
    const l = lines[i % lines.length]!;
    const hex = i.toString(16).padStart(12, '0').toUpperCase();
    outLines.push(l.replace(/^"\{[^}]+\}"/, `"{AAAAAAAA-0000-4000-8000-${hex}}"`));
  }
  return Buffer.from(outLines.join('\n') + '\n');
}
