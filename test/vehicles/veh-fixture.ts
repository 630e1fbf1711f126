/**
 * GENERATED, format-true DfT vehicle licensing data files (df_VEH0120_GB/UK.csv, df_VEH0160_GB/UK.csv).
 * No real copy of these files could be found (see test/fixtures/vehicles/dft-vehicle-licensing/SOURCES.md),
 * so tests and benches generate them from the published column layout: `BodyType,Make,GenModel,Model,Fuel`
 * (+ `LicenceStatus` for VEH0120), then one `YYYY Qn` column per quarter, newest first (VEH0120_GB: every
 * quarter back to 2008 Q3, then Q4 only back to 1994; UK files from 2014 Q3; VEH0160_GB from 2001 Q1);
 * upper-case values, GenModel repeating the make, `MISSING` models; cells that are integers, blank, `0` or the
 * markers `[c] [x] [z] [low]`; model names with commas (quoted). The counts are invented.
 *
 * Also a plain-JS unpivot (`expectedLong`) that tests use for expected values, independent of the loader.
 */
import { writeFileSync } from 'node:fs';

export type VehTable = 'licensing' | 'registrations';
export type Geo = 'GB' | 'UK';

export const FUELS = [
  'BATTERY ELECTRIC', 'DIESEL', 'FUEL CELL ELECTRIC', 'GAS', 'HYBRID ELECTRIC (DIESEL)', 'HYBRID ELECTRIC (PETROL)',
  'OTHER FUEL TYPES', 'PETROL', 'PLUG-IN HYBRID ELECTRIC (DIESEL)', 'PLUG-IN HYBRID ELECTRIC (PETROL)', 'RANGE EXTENDED ELECTRIC',
];
export const BODY_TYPES = ['Cars', 'Light goods vehicles', 'Heavy goods vehicles', 'Motorcycles', 'Buses and coaches', 'Other vehicles'];

/** Makes: real names plus 30 invented `MA…` makes so that the prefix `MA` matches more than 25 makes. */
export const MAKES = [
  'ABARTH', 'AUDI', 'BMW', 'FORD', 'FORDSON', 'KIA', 'TESLA', 'TOYOTA', 'VAUXHALL', 'VOLKSWAGEN', 'MAZDA', 'MASERATI',
  ...Array.from({ length: 28 }, (_, i) => `MA${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}TEST`),
];
export const MODELS: Record<string, string[]> = {
  ABARTH: ['124 GT MULTIAIR', '595 COMPETIZIONE'],
  FORD: ['FIESTA ZETEC', 'FIESTA TITANIUM', 'FOCUS ST', 'TRANSIT 350 L3, H2', 'MISSING'],
  FORDSON: ['MAJOR'],
  TESLA: ['MODEL 3 LONG RANGE', 'MODEL Y'],
  KIA: ['NIRO 2', 'SPORTAGE "GT" LINE'],
};

/** Quarter labels newest first, as in each file. */
export function vehQuarters(table: VehTable, geo: Geo, newest = '2026 Q1', oldestOverride?: string): string[] {
  const [y0, q0] = newest.split(' Q').map(Number) as [number, number];
  const oldest = oldestOverride ?? (geo === 'UK' ? '2014 Q3' : table === 'licensing' ? '1994 Q4' : '2001 Q1');
  const [yo, qo] = oldest.split(' Q').map(Number) as [number, number];
  const out: string[] = [];
  for (let y = y0, q = q0; y > yo || (y === yo && q >= qo); q === 1 ? ((q = 4), y--) : q--) {
    // VEH0120_GB: only Q4 before 2008 Q3
    if (table === 'licensing' && geo === 'GB' && (y < 2008 || (y === 2008 && q < 3)) && q !== 4) continue;
    out.push(`${y} Q${q}`);
  }
  return out;
}

export interface VehRow {
  body: string;
  make: string;
  gen: string;
  model: string;
  fuel: string;
  status?: string;
  cells: string[];
}

/** A small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One cell: mostly counts, with zeros, blanks and each marker. */
function cell(r: () => number, i: number, intro: number): string {
  if (i > intro) return r() < 0.7 ? '[z]' : r() < 0.5 ? '0' : '';
  const x = r();
  if (x < 0.04) return '[c]';
  if (x < 0.06) return '[x]';
  if (x < 0.08) return '[low]';
  if (x < 0.12) return '0';
  if (x < 0.14) return '';
  return String(1 + Math.floor(r() * 5000));
}

/** `rows` wide rows (Licensed and SORN pairs for VEH0120). */
export function generateVeh(table: VehTable, geo: Geo, rows: number, seed = 1, quarters = vehQuarters(table, geo)): { header: string[]; rows: VehRow[] } {
  const r = rng(seed);
  const header = ['BodyType', 'Make', 'GenModel', 'Model', 'Fuel', ...(table === 'licensing' ? ['LicenceStatus'] : []), ...quarters];
  const out: VehRow[] = [];
  let k = 0;
  while (out.length < rows) {
    const make = MAKES[k % MAKES.length]!;
    const models = MODELS[make] ?? ['MODEL MISSING', `${make.slice(0, 3)} ${1 + (k % 7)}`];
    const model = models[Math.floor(k / MAKES.length) % models.length]!;
    const gen = model === 'MISSING' ? `${make} MODEL MISSING` : `${make} ${model.split(' ')[0]}`;
    const body = BODY_TYPES[k % 5 === 4 ? 2 : k % 3 === 2 ? 1 : 0]!;
    const fuel = FUELS[(k * 7) % FUELS.length]!;
    const intro = Math.floor(r() * quarters.length);
    for (const status of table === 'licensing' ? ['Licensed', 'SORN'] : [undefined]) {
      if (out.length >= rows) break;
      out.push({ body, make, gen, model, fuel, ...(status ? { status } : {}), cells: quarters.map((_, i) => cell(r, i, intro)) });
    }
    k++;
  }
  return { header, rows: out };
}

const q = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

export function vehCsv(f: { header: string[]; rows: VehRow[] }): string {
  const lines = [f.header.join(',')];
  for (const x of f.rows) lines.push([x.body, x.make, x.gen, x.model, x.fuel, ...(x.status ? [x.status] : []), ...x.cells].map(q).join(','));
  return lines.join('\r\n') + '\r\n';
}

export function writeVeh(path: string, f: { header: string[]; rows: VehRow[] }): void {
  writeFileSync(path, vehCsv(f));
}

export interface LongRow {
  geography: Geo;
  quarter: string;
  licence_status?: string;
  body_type: string;
  make: string;
  generic_model: string;
  model: string;
  fuel: string;
  count: number;
}

/** Quarter-end date computed here without the loader: the last day of the quarter's third month. */
function qEnd(label: string): string {
  const [y, n] = label.split(' Q').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, n * 3, 0));
  return d.toISOString().slice(0, 10);
}

/** The long rows an API answer may contain: positive integer cells only. */
export function expectedLong(f: { header: string[]; rows: VehRow[] }, geo: Geo): LongRow[] {
  const qs = f.header.filter((h) => /^\d{4} Q[1-4]$/.test(h));
  const out: LongRow[] = [];
  for (const x of f.rows) {
    qs.forEach((label, i) => {
      const c = x.cells[i]!;
      if (!/^\d+$/.test(c) || Number(c) === 0) return;
      out.push({
        geography: geo, quarter: qEnd(label), ...(x.status ? { licence_status: x.status } : {}), body_type: x.body, make: x.make,
        generic_model: x.gen, model: x.model, fuel: x.fuel, count: Number(c),
      });
    });
  }
  return out;
}
