/**
 * GENERATED, format-true DVSA anonymised MOT files for tests and benches. The real excerpts
 * (test/fixtures/vehicles/dvsa-mot/, 3-9 lines each) give the columns and value formats; no copy of a
 * whole 2024/2025 extract exists, so the rows here are invented in the published layouts
 * (docs/vehicles.md, "MOT file layouts"):
 *   '2025' comma, 15 result columns (+ completed_date), items with mot_test_rfr_location_type_id and
 *          completed_date; quoted only when needed, embedded quotes escaped with a backslash
 *   '2024' comma, 14 columns, doubled quotes, a duplicate header row every `headerEvery` rows
 *   '2023' pipe, 14 columns, items with location_id
 * plus lookup files (pipe): item_detail.csv and item_group.csv.
 *
 * `expected*` compute the routes' aggregates with plain JS from the same rows, independent of the loader.
 */
import { rng } from './veh-fixture.js';

export type MotLayout = '2025' | '2024' | '2023';

export interface MotResult {
  test_id: number;
  vehicle_id: number;
  test_date: string;
  test_class_id: string;
  test_type: string;
  test_result: string;
  test_mileage: string;
  postcode_area: string;
  make: string;
  model: string;
  colour: string;
  fuel_type: string;
  cylinder_capacity: string;
  first_use_date: string;
}
export interface MotItem {
  test_id: number;
  rfr_id: number;
  rfr_type_code: string;
  location: string;
  dangerous_mark: string;
}
export interface ItemDetail {
  rfr_id: number;
  test_class_id: string;
  test_item_id: number;
  category: string;
  desc: string;
}
export interface ItemGroup {
  test_item_id: number;
  test_class_id: string;
  parent_id: number;
  item_name: string;
}

const MAKES: Array<[string, string[]]> = [
  ['FORD', ['FOCUS', 'FIESTA', 'TRANSIT', 'KA']],
  ['VAUXHALL', ['CORSA', 'ASTRA', 'CORSAVAN']],
  ['TOYOTA', ['PRIUS', 'PRIUS +', 'YARIS']],
  ['LAND ROVER', ['SERIES 1, 80 INCH', 'RANGE ROVER EVOQUE']],
  ['STREETZONE', ['STREETZONE 50 2T 12"', 'ZONE "S" 125']],
  ['UNCLASSIFIED', ['UNCLASSIFIED']],
];
const FUELS = ['PE', 'DI', 'HY', 'EL', 'ED', 'LP', 'OT', ''];
const RESULTS = ['P', 'P', 'P', 'F', 'F', 'PRS', 'ABA', 'ABR'];
const TYPES = ['NT', 'NT', 'NT', 'NT', 'RT', 'PL'];
const AREAS = ['LS', 'LE', 'B', 'NW', 'XX', 'E'];

/** The lookup tables: groups (root 0 "Vehicle", two top levels, children) and details per class 4 and 7. */
export function lookups(): { details: ItemDetail[]; groups: ItemGroup[] } {
  const groups: ItemGroup[] = [];
  for (const cls of ['4', '7']) {
    groups.push(
      { test_item_id: 0, test_class_id: cls, parent_id: 0, item_name: 'Vehicle' },
      { test_item_id: 1, test_class_id: cls, parent_id: 0, item_name: 'Brakes' },
      { test_item_id: 2, test_class_id: cls, parent_id: 1, item_name: 'Service brake' },
      { test_item_id: 3, test_class_id: cls, parent_id: 2, item_name: 'Front axle' },
      { test_item_id: 10, test_class_id: cls, parent_id: 0, item_name: 'Tyres' },
      { test_item_id: 11, test_class_id: cls, parent_id: 10, item_name: 'Condition' },
      { test_item_id: 20, test_class_id: cls, parent_id: 0, item_name: 'Lamps, reflectors and electrical equipment' },
    );
  }
  const details: ItemDetail[] = [];
  const defs: Array<[number, number, string, string]> = [
    [30305, 3, 'Major', 'brake disc worn, pitted or scored'],
    [30823, 3, 'Dangerous', 'brake pipe excessively damaged'],
    [31194, 11, 'Minor', 'tyre close to the legal limit'],
    [31043, 11, 'Dangerous', 'tread depth below requirements of 1.6mm'],
    [30616, 20, 'Major', 'headlamp aim too high'],
    [4, 2, 'Pre-EU Directive', 'an obligatory lamp missing'],
  ];
  for (const cls of ['4', '7']) {
    for (const [rfr, item, cat, desc] of defs) details.push({ rfr_id: rfr, test_class_id: cls, test_item_id: item, category: cat, desc: `${desc}${cls === '7' ? ' (goods)' : ''}` });
  }
  return { details, groups };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `n` results for a test year and their items (about 2 per failed/PRS test, some advisories on passes). */
export function generateMot(year: number, n: number, seed = 1): { results: MotResult[]; items: MotItem[] } {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const rfrs = lookups().details.filter((d) => d.test_class_id === '4').map((d) => d.rfr_id);
  const results: MotResult[] = [];
  const items: MotItem[] = [];
  for (let i = 0; i < n; i++) {
    const [make, models] = pick(MAKES);
    const firstUseYear = year - Math.floor(r() * 30);
    const fuFlag = r();
    const first_use_date = fuFlag < 0.03 ? '1971-01-01' : fuFlag < 0.05 ? '' : `${firstUseYear}-${pad(1 + Math.floor(r() * 12))}-${pad(1 + Math.floor(r() * 28))}`;
    const m = r();
    // unique and not chronological, like DVSA's ids (the multiplier is coprime with the modulus)
    const test_id = 500_000_000 + ((i * 1_000_003 + seed * 7) % 400_000_000);
    const res: MotResult = {
      test_id,
      vehicle_id: 1_000_000 + Math.floor(r() * 9_000_000),
      test_date: `${year}-${pad(1 + Math.floor(r() * 12))}-${pad(1 + Math.floor(r() * 28))}`,
      test_class_id: r() < 0.9 ? '4' : '7',
      test_type: pick(TYPES),
      test_result: pick(RESULTS),
      test_mileage: m < 0.05 ? '0' : m < 0.08 ? '' : String(1000 + Math.floor(r() * 200_000)),
      postcode_area: pick(AREAS),
      make,
      model: pick(models),
      colour: pick(['SILVER', 'BLUE', 'BLACK', 'WHITE']),
      fuel_type: pick(FUELS),
      cylinder_capacity: r() < 0.05 ? '' : String(998 + Math.floor(r() * 2000)),
      first_use_date,
    };
    results.push(res);
    const k = res.test_result === 'F' || res.test_result === 'PRS' ? 1 + Math.floor(r() * 3) : r() < 0.3 ? 1 : 0;
    for (let j = 0; j < k; j++) {
      const type = res.test_result === 'F' ? pick(['F', 'F', 'A', 'M']) : res.test_result === 'PRS' ? pick(['P', 'A']) : pick(['A', 'M']);
      items.push({ test_id, rfr_id: pick(rfrs), rfr_type_code: type, location: String(Math.floor(r() * 200)), dangerous_mark: r() < 0.1 ? 'D' : '' });
    }
  }
  return { results, items };
}

const RESULT_HEADER = ['test_id', 'vehicle_id', 'test_date', 'test_class_id', 'test_type', 'test_result', 'test_mileage', 'postcode_area', 'make', 'model', 'colour', 'fuel_type', 'cylinder_capacity', 'first_use_date'];

function field(v: string, layout: MotLayout): string {
  if (layout === '2023') return v;
  if (!/[",\n\\]/.test(v)) return v;
  return layout === '2025' ? `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : `"${v.replace(/"/g, '""')}"`;
}

/** Results as one CSV text in a layout (2024: a duplicate header row every `headerEvery` rows). */
export function resultsCsv(rows: MotResult[], layout: MotLayout, headerEvery = 0): string {
  const sep = layout === '2023' ? '|' : ',';
  const header = layout === '2025' ? [...RESULT_HEADER, 'completed_date'] : RESULT_HEADER;
  const out = [header.join(sep)];
  rows.forEach((x, i) => {
    if (headerEvery && i > 0 && i % headerEvery === 0) out.push(header.join(sep));
    const vals = RESULT_HEADER.map((h) => String((x as unknown as Record<string, unknown>)[h]));
    if (layout === '2025') vals.push(`${x.test_date} 1${i % 10}:2${i % 10}:00.000`);
    out.push(vals.map((v) => field(v, layout)).join(sep));
  });
  return out.join('\n') + '\n';
}

export function itemsCsv(rows: MotItem[], layout: MotLayout, headerEvery = 0): string {
  const sep = layout === '2023' ? '|' : ',';
  const header =
    layout === '2025'
      ? ['test_id', 'rfr_id', 'rfr_type_code', 'mot_test_rfr_location_type_id', 'dangerous_mark', 'completed_date']
      : ['test_id', 'rfr_id', 'rfr_type_code', 'location_id', 'dangerous_mark'];
  const out = [header.join(sep)];
  rows.forEach((x, i) => {
    if (headerEvery && i > 0 && i % headerEvery === 0) out.push(header.join(sep));
    const vals = [String(x.test_id), String(x.rfr_id), x.rfr_type_code, x.location, x.dangerous_mark];
    if (layout === '2025') vals.push('2025-01-02 10:00:00.000');
    out.push(vals.join(sep));
  });
  return out.join('\n') + '\n';
}

export function itemDetailCsv(): string {
  const h = 'rfr_id|test_class_id|test_item_id|minor_item|rfr_deficiency_category|rfr_desc|rfr_loc_marker|rfr_insp_manual_desc|rfr_advisory_text|test_item_set_section_id';
  return [h, ...lookups().details.map((d) => `${d.rfr_id}|${d.test_class_id}|${d.test_item_id}|N|${d.category}|${d.desc}|N|${d.desc}||1`)].join('\n') + '\n';
}
export function itemGroupCsv(): string {
  const h = 'test_item_id|test_class_id|parent_id|test_item_set_section_id|item_name';
  return [h, ...lookups().groups.map((g) => `${g.test_item_id}|${g.test_class_id}|${g.parent_id}|1|${g.item_name}`)].join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------------
// Expected values, written from the spec's definitions (docs/vehicles.md)

const FUEL_LABEL: Record<string, string> = { PE: 'petrol', DI: 'diesel', HY: 'hybrid_electric', EL: 'electric', ED: 'hybrid_electric', LP: 'lpg', OT: 'other' };
export const fuelLabel = (c: string) => FUEL_LABEL[c] ?? 'unknown';
export const RESULT_LABEL: Record<string, string> = { P: 'passed', F: 'failed', PRS: 'pass_with_rectification' };

export function firstUse(x: MotResult): string | null {
  return x.first_use_date === '' || x.first_use_date === '1971-01-01' ? null : x.first_use_date;
}
export function ageBand(x: MotResult): string {
  const fu = firstUse(x);
  if (!fu) return 'unknown';
  let age = Number(x.test_date.slice(0, 4)) - Number(fu.slice(0, 4));
  if (x.test_date.slice(5) < fu.slice(5)) age--;
  if (age < 0) return 'unknown';
  return age <= 3 ? '0-3' : age <= 6 ? '4-6' : age <= 9 ? '7-9' : age <= 14 ? '10-14' : age <= 19 ? '15-19' : '20+';
}
export function firstUseBand(x: MotResult): string {
  const fu = firstUse(x);
  // docs/vehicles.md: 'unknown' as the age band, i.e. also for a first use after the test date.
  if (!fu || fu > x.test_date) return 'unknown';
  const s = Math.floor(Number(fu.slice(0, 4)) / 5) * 5;
  return `${s}-${s + 4}`;
}

export interface PassRate {
  make: string;
  model: string;
  first_use_year_band: string;
  vehicle_age_band: string;
  fuel_type: string;
  test_year: number;
  statistics: { tests: number; passes: number; pass_rate: number };
}

export function expectedPassRates(results: MotResult[]): Map<string, { tests: number; passes: number }> {
  const out = new Map<string, { tests: number; passes: number }>();
  for (const x of results) {
    if (x.test_type !== 'NT' || !RESULT_LABEL[x.test_result]) continue;
    const key = [x.test_date.slice(0, 4), x.make, x.model, fuelLabel(x.fuel_type), firstUseBand(x), ageBand(x)].join('|');
    const e = out.get(key) ?? { tests: 0, passes: 0 };
    e.tests++;
    if (x.test_result === 'P' || x.test_result === 'PRS') e.passes++;
    out.set(key, e);
  }
  return out;
}

export function expectedFailures(results: MotResult[], items: MotItem[]): Map<string, { failures: number; tests: Set<number> }> {
  const { details, groups } = lookups();
  const byId = new Map(results.filter((x) => RESULT_LABEL[x.test_result]).map((x) => [x.test_id, x]));
  const top = (item: number, cls: string): string | null => {
    let g = groups.find((x) => x.test_item_id === item && x.test_class_id === cls);
    while (g && g.parent_id !== 0) {
      const p = g.parent_id;
      g = groups.find((x) => x.test_item_id === p && x.test_class_id === cls);
    }
    return g && g.test_item_id !== 0 ? g.item_name : null;
  };
  const rfrType: Record<string, string> = { F: 'fail', P: 'prs', A: 'advisory', M: 'minor' };
  const out = new Map<string, { failures: number; tests: Set<number> }>();
  for (const it of items) {
    const t = byId.get(it.test_id);
    if (!t) continue;
    const d = details.find((x) => x.rfr_id === it.rfr_id && x.test_class_id === t.test_class_id);
    const key = [t.test_date.slice(0, 4), t.make, t.model, rfrType[it.rfr_type_code] ?? 'unknown', d ? top(d.test_item_id, d.test_class_id) : null, d?.desc ?? null, d?.category === 'Dangerous'].join('|');
    const e = out.get(key) ?? { failures: 0, tests: new Set<number>() };
    e.failures++;
    e.tests.add(it.test_id);
    out.set(key, e);
  }
  return out;
}
