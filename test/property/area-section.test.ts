/**
 * The property section of the area profile (src/domains/property/area-section.ts), built in process on the
 * property fixture mirror alone (test/support/area-section.ts), for a place written by hand: the sector
 * IP11 7 and district IP11 (three 1995 sales in the real price-paid excerpt), the local authority
 * Birmingham (E08000025: its HPI rows and its council tax bands are in the fixtures). Every figure is read
 * here from the fixture files, not through the routes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSection, place } from '../support/area-section.js';
import { useFixtureMirror } from '../support/route-samples.js';
import { RAW_VALUES } from './ods-fixture.js';

const fx = useFixtureMirror('pd-property-area-', 'property');
const FIX = join(__dirname, '..', 'fixtures', 'property');
const BIRMINGHAM = { code: 'E08000025', name: 'Birmingham' };
const TYPES: Record<string, string> = { D: 'detached', S: 'semi_detached', T: 'terraced', F: 'flat', O: 'other' };

/** pp-complete.csv (every value quoted, no comma inside the columns read): price, date, postcode, type. */
const sales = () => readFileSync(join(FIX, 'land-registry-ppd', 'pp-complete.csv'), 'utf8').trim().split(/\r?\n/)
  .map((l) => l.split('","').map((c) => c.replace(/^"|"$/g, '')))
  .map((c) => ({ price: Number(c[1]), date: c[2]!.slice(0, 10), postcode: c[3]!, type: c[4]! }));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

describe('area section: property', () => {
  it('price paid for the sector and district over 12 months ending with the newest sale; HPI; council tax', async () => {
    const { answer: s, source } = await buildSection('property', place({ pc: { sector: 'IP11 7', outcode: 'IP11', local_authority: BIRMINGHAM } }), join(fx.dir(), 'mirror'));
    const all = sales();
    const newest = all.map((x) => x.date).sort().at(-1)!;
    expect(newest).toBe('1995-12-22'); // the excerpt's newest sale: the window is 1995-01 to 1995-12
    const district = all.filter((x) => x.postcode.startsWith('IP11 '));
    const sector = all.filter((x) => x.postcode.startsWith('IP11 7'));
    // by hand: IP11 7SG 48,500 (F), IP11 2YQ 69,500 (D), IP11 7PU 83,000 (D)
    expect(district.map((x) => x.price).sort()).toEqual([48500, 69500, 83000]);
    expect(s.status).toBe('ok');
    const pp = s.price_paid as any;
    for (const [got, rows, area] of [[pp.sector, sector, 'IP11 7'], [pp.district, district, 'IP11']] as const) {
      expect(got).toMatchObject({ area, months: { from: '1995-01', to: '1995-12' }, sales: rows.length, median_price: median(rows.map((x) => x.price)) });
      expect(got.mean_price).toBeCloseTo(rows.reduce((n, x) => n + x.price, 0) / rows.length, 2);
      // every property type the statistics route lists (detached, semi-detached, terraced, flat), none as 0 and null
      const of = (t: string) => rows.filter((x) => x.type === t).map((x) => x.price);
      expect(Object.fromEntries((got.by_property_type as any[]).map((t) => [t.property_type, [t.sales, t.median_price]])))
        .toEqual(Object.fromEntries(['D', 'S', 'T', 'F'].map((t) => [TYPES[t], [of(t).length, of(t).length ? median(of(t)) : null]])));
    }
    expect(pp.district.median_price).toBe(69500);
    expect(pp.sector.median_price).toBe(65750);
    // HPI: Birmingham's newest month in the excerpt (rows 2001-11 and 2002-12)
    const hpi = readFileSync(join(FIX, 'uk-hpi', 'UK-HPI-full-file-sample.csv'), 'utf8').trim().split(/\r?\n/).map((l) => l.split(','))
      .filter((c) => c[1] === 'Birmingham').map((c) => ({ month: `${c[0]!.slice(6, 10)}-${c[0]!.slice(3, 5)}`, price: Number(c[3]), change: Number(c[7]) }))
      .sort((a, b) => a.month.localeCompare(b.month)).at(-1)!;
    expect(s.hpi).toEqual({ area: 'Birmingham', month: hpi.month, average_price: hpi.price, annual_change_percent: hpi.change });
    expect(hpi).toEqual({ month: '2002-12', price: 92268, change: 29.9 });
    // council tax: Birmingham's row of the Table 9 cells (the stored value where it differs from the display)
    const cells = readFileSync(join(FIX, 'council-tax', 'DERIVED-Tables_1-9_2026-27-Table_9-cells.csv'), 'utf8').trim().split(/\r?\n/).map((l) => l.split(','));
    const row = cells.find((c) => c[0] === BIRMINGHAM.code)!;
    const bands = Object.fromEntries('ABCDEFGH'.split('').map((b, i) => [b, Number(RAW_VALUES[`${BIRMINGHAM.code}:${b}`] ?? row[3 + i])]));
    expect((s.council_tax as any).bands).toEqual(bands);
    expect((s.council_tax as any).band_d).toBe(2362.9);
    expect((s.council_tax as any).local_authority).toEqual(BIRMINGHAM);
    expect(source[0]).toBe('/v1/property/price-paid/statistics?postcode=IP11');
    expect(source).toContain('/v1/property/council-tax?authority_code=E08000025&per_page=100&page=1');
  });

  it('a part not synced is null and named; the section is not_synced only when all three are', async () => {
    const none = await buildSection('property', place({ pc: { sector: 'IP11 7', outcode: 'IP11', local_authority: BIRMINGHAM } }), join(fx.dir(), 'nothing-here'));
    expect(none.answer).toEqual({ status: 'not_synced', sync: 'publicdata sync price-paid, publicdata sync hpi, publicdata sync council-tax' });
  });
});
