/**
 * price-paid's address in SQL (ADDRESS_SQL) against `formatAddress` on generated parts (fast-check), Unicode
 * spaces and empty strings included (moved from test/mirror/csv-sql.test.ts, which tests the shared CSV lines).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { ADDRESS_SQL, formatAddress } from '../../src/domains/property/price-paid.js';

let db: DuckDBInstance;
let conn: DuckDBConnection;
beforeAll(async () => {
  db = await DuckDBInstance.create(':memory:');
  conn = await db.connect();
});
afterAll(() => {
  conn.closeSync();
  db.closeSync();
});

describe('price-paid address in SQL', () => {
  const spaces = ['\ufeff', ' ', '\t', '\n', '\v', '\f', '\r', '\u00a0', '\u1680', '\u2003', '\u2028', '\u202f', '\u3000', '\ufeff', '\u200b'];
  const part = fc.option(
    fc.array(fc.constantFrom('1', '12', '7', 'B', 'A', 'Z', 'a', '-', ',', ', ', 'FLAT', 'COURT', 'LONDON', ...spaces), { maxLength: 6 }).map((a) => a.join('')),
    { nil: null, freq: 4 },
  );
  const lit = (v: string | null) => (v === null ? 'NULL::VARCHAR' : `'${v.replace(/'/g, "''")}'`);

  it('equals formatAddress for generated parts (house numbers, ranges, Unicode spaces, empty strings)', async () => {
    const samples = fc.sample(fc.record({ saon: part, paon: part, street: part, locality: part, town: part }), { numRuns: 3000, seed: 28 });
    samples.push(
      { saon: 'FLAT 3', paon: '12', street: 'DOWNING STREET', locality: null, town: 'LONDON' },
      { saon: null, paon: 'THE OLD RECTORY', street: 'BIDSTON ROAD', locality: 'CLAUGHTON', town: 'BIRKENHEAD' },
      { saon: null, paon: '12 - 14B', street: 'X', locality: 'LONDON', town: 'LONDON' },
      { saon: '', paon: '', street: 'HIGH STREET', locality: '', town: '' },
      { saon: null, paon: 'A\u00a012', street: 'S', locality: 'L', town: null },
      { saon: null, paon: '12\n', street: 'S', locality: null, town: 'T' },
      { saon: '\ufeff', paon: '\ufeff12', street: 'S', locality: '\ufeffT', town: 'T' },
    );
    const rows = samples.map((s) => `(${[s.saon, s.paon, s.street, s.locality, s.town].map(lit).join(', ')})`);
    // The JS path formats the parts as @duckdb/node-api reads them back: read them in the same query.
    const r = await conn.runAndReadAll(
      // '|' first: the address itself is read whole (in the real path it sits inside a rendered line)
      `SELECT '|' || ${ADDRESS_SQL} AS address, saon, paon, street, locality, town FROM (VALUES ${rows.join(', ')}) t(saon, paon, street, locality, town)`,
    );
    const got = r.getRowObjects();
    const want = got.map((x) => formatAddress(x as Parameters<typeof formatAddress>[0]));
    for (let i = 0; i < want.length; i++) expect(got[i]!.address, JSON.stringify(samples[i])).toBe(`|${want[i]}`);
    // the generated parts do reach both joins (a house number and a name) and a Unicode-space case
    expect(want.filter((a) => /\d [^,]/.test(a)).length).toBeGreaterThan(10);
    expect(want[samples.length - 3]).toBe('A\u00a012 S, L');
    // a leading U+FEFF is dropped where JavaScript reads the value (TextDecoder), so the SQL drops it too
    expect(want[samples.length - 1]).toBe('12 S, T');
  });
});
