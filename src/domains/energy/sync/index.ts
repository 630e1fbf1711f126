/**
 * `publicdata sync energy-price-cap`: Ofgem's price-cap levels model workbook (the `.xlsx` linked from the
 * "Energy price cap (default tariff) levels" page; `--from FILE_OR_URL` for a saved copy, xlsx/xls/ods)
 * into energy_price_cap.duckdb:
 *  - `periods(period_id, start_date, end_date, label)`: the cap periods of the workbook's header rows;
 *  - `levels(...)`: every region x fuel x payment method x meter x (nil | benchmark kWh) level as the
 *    workbook states it (pounds a year, its VAT basis, sheet and cell);
 *  - `rates(...)`: unit rate and standing charge derived from each nil/benchmark pair (docs/energy.md):
 *    excluding VAT to 4 dp and including VAT to 2 dp, from the unrounded derivation, halves up.
 * The load refuses a workbook that lacks any region, fuel, payment method or meter, or a nil or benchmark
 * sheet of one, so the mirror never holds part of a model.
 */
import { readFileSync } from 'node:fs';
import { query, queryOne } from '../../../mirror/db.js';
import { catalogFields, discoverFromPages, pageLinks } from '../../../../sync/common.js';
import type { DatasetModule, DiscoverContext, LoadContext, LoadResult, UpstreamFile } from '../../../../sync/types.js';
import { bothBases, ratesFromLevels } from './derive.js';
import { ENERGY_PRICE_CAP_INFO } from '../datasets.js';
import { priceCapData, vatOn, type Fuel } from '../shipped.js';
import { readWorkbook, type Level } from './workbook.js';

export const LEVELS_PAGE =
  '/energy-regulation/domestic-and-non-domestic/energy-pricing-rules/energy-price-cap/energy-price-cap-default-tariff-levels';

const DDL = [
  `CREATE TABLE periods (period_id VARCHAR PRIMARY KEY, start_date DATE NOT NULL, end_date DATE NOT NULL, label VARCHAR NOT NULL)`,
  `CREATE TABLE levels (
     period_id VARCHAR NOT NULL, region_code VARCHAR NOT NULL, fuel VARCHAR NOT NULL, payment_method VARCHAR NOT NULL,
     meter VARCHAR NOT NULL, kwh INTEGER NOT NULL, pounds VARCHAR NOT NULL, vat_basis VARCHAR NOT NULL, sheet VARCHAR NOT NULL, cell VARCHAR NOT NULL)`,
  `CREATE TABLE rates (
     period_id VARCHAR NOT NULL, region_code VARCHAR NOT NULL, fuel VARCHAR NOT NULL, payment_method VARCHAR NOT NULL, meter VARCHAR NOT NULL,
     unit_rate DECIMAL(10,2) NOT NULL, standing_charge DECIMAL(10,2) NOT NULL,
     unit_rate_ex_vat DECIMAL(12,4) NOT NULL, standing_charge_ex_vat DECIMAL(12,4) NOT NULL,
     benchmark_kwh INTEGER NOT NULL, PRIMARY KEY (period_id, region_code, fuel, payment_method, meter))`,
];

/** The (fuel, meter, payment) combinations a complete model holds. */
export const COMBOS: ReadonlyArray<readonly [fuel: string, meter: string, payment: string]> = ['direct_debit', 'standard_credit', 'prepayment'].flatMap(
  (p) => [['electricity', 'single_rate', p] as const, ['electricity', 'multi_register', p] as const, ['gas', 'single_rate', p] as const],
);

export interface PairedRate {
  period_id: string;
  region_code: string;
  fuel: string;
  payment_method: string;
  meter: string;
  benchmark_kwh: number;
  unit_rate: string;
  standing_charge: string;
  unit_rate_ex_vat: string;
  standing_charge_ex_vat: string;
}

/**
 * Nil and benchmark levels paired into rates, each period's fuel at its own VAT rate (data/energy/price-cap.yaml
 * `vat`, in force on the period's first day); throws when the model is incomplete.
 */
export function pairLevels(levels: readonly Level[], periods: ReadonlyArray<{ period_id: string; start_date: string }>): PairedRate[] {
  const regions = priceCapData().regions.map((r) => r.code);
  const byKey = new Map<string, { nil?: Level; bench?: Level }>();
  for (const l of levels) {
    const k = `${l.period_id}|${l.region_code}|${l.fuel}|${l.meter}|${l.payment_method}`;
    const e = byKey.get(k) ?? {};
    if (l.kwh === 0) e.nil = l;
    else e.bench = l;
    byKey.set(k, e);
  }
  const out: PairedRate[] = [];
  const withGb = levels.some((l) => l.region_code === 'gb_average');
  for (const { period_id: pid, start_date } of periods)
    for (const region of withGb ? [...regions, 'gb_average'] : regions)
      for (const [fuel, meter, payment] of COMBOS) {
        const vatRate = vatOn(fuel as Fuel, start_date).rate;
        const e = byKey.get(`${pid}|${region}|${fuel}|${meter}|${payment}`);
        if (!e?.nil || !e.bench)
          throw new Error(`the workbook has no ${e?.nil ? 'benchmark' : 'nil-kWh'} level for ${region} ${fuel} ${meter} ${payment} in ${pid}`);
        if (e.nil.vat_basis !== e.bench.vat_basis) throw new Error(`${e.nil.sheet} and ${e.bench.sheet} state different VAT bases`);
        const raw = ratesFromLevels(e.nil.pounds, e.bench.pounds, e.bench.kwh);
        if (raw.unit.isNegative() || raw.standing.isNegative())
          throw new Error(`${e.bench.sheet}!${e.bench.cell}: the benchmark level is below the nil level (${region} ${pid})`);
        out.push({
          period_id: pid,
          region_code: region,
          fuel,
          payment_method: payment,
          meter,
          benchmark_kwh: e.bench.kwh,
          ...bothBases(raw.unit, raw.standing, e.nil.vat_basis, vatRate),
        });
      }
  return out;
}

async function insertChunks(ctx: LoadContext, table: string, cols: number, rows: unknown[][]): Promise<void> {
  const chunk = 500;
  const ph = `(${new Array(cols).fill('?').join(', ')})`;
  for (let i = 0; i < rows.length; i += chunk) {
    const part = rows.slice(i, i + chunk);
    await ctx.conn.run(`INSERT INTO ${table} VALUES ${part.map(() => ph).join(', ')}`, part.flat() as never);
  }
}

/** A levels-model file name, whatever its separators and wording (`Default-tariff-cap-level-v1.31.xlsx`). */
export const MODEL_NAME_RE = /^(?=.*(level|default[\s_-]*tariff[\s_-]*cap)).*\.xlsx$/i;

/** The model's version as numbers (`v1.31` -> [1, 31], `v1_23` -> [1, 23]); [] without one. */
export function modelVersion(name: string): number[] {
  const m = /(?:^|[\s_.-])v(\d+(?:[._]\d+)*)(?=$|[\s_.-])/i.exec(name.replace(/\.xlsx$/i, ''));
  return m ? m[1]!.split(/[._]/).map(Number) : [];
}

/** The upload month of an Ofgem attachment URL (`/sites/default/files/2026-08/...`), '' when absent. */
const uploadMonth = (url: string): string => /\/files\/(\d{4}-\d{2})\//.exec(url)?.[1] ?? '';

function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The newest levels model among a page's links: the highest version number (a name without one ranks below
 * any with one), then the latest upload month; never simply the first link on the page.
 */
export function newestModel(links: ReadonlyMap<string, string>): { name: string; url: string } | undefined {
  let best: { name: string; url: string; v: number[] } | undefined;
  for (const [name, url] of links) {
    const v = modelVersion(name);
    if (!best) best = { name, url, v };
    else {
      const c = compareVersions(v, best.v);
      if (c > 0 || (c === 0 && uploadMonth(url) > uploadMonth(best.url))) best = { name, url, v };
    }
  }
  return best && { name: best.name, url: best.url };
}

const energyPriceCap: DatasetModule = {
  ...catalogFields(ENERGY_PRICE_CAP_INFO),
  defaultBaseUrl: 'https://www.ofgem.gov.uk',
  tables: ['periods', 'levels', 'rates'],
  rejectThreshold: 0,
  fromNames: /\.(xlsx|xls|ods)$/i,

  async discover(ctx: DiscoverContext): Promise<UpstreamFile[]> {
    const base = ctx.baseUrl.replace(/\/+$/, '');
    return discoverFromPages(
      ctx,
      [`${base}${LEVELS_PAGE}`],
      (html, page) => {
        const model = newestModel(pageLinks(html.replace(/&amp;/g, '&'), page, MODEL_NAME_RE));
        if (!model) return 'no link to a levels-model .xlsx';
        return { url: model.url, name: model.name, kind: 'full' };
      },
      { what: "the price-cap levels model workbook (.xlsx) on Ofgem's levels page", dataset: 'energy-price-cap' },
    );
  },

  async load(ctx: LoadContext): Promise<LoadResult> {
    const file = ctx.files[0];
    if (!file) throw new Error('energy-price-cap: no file downloaded');
    const d = priceCapData();
    ctx.log?.(`reading ${file.name}`);
    const wb = readWorkbook(readFileSync(file.path), [...d.regions, d.gb_average]);
    const rates = pairLevels(wb.levels, wb.periods);
    for (const s of DDL) await ctx.conn.run(s);
    await insertChunks(ctx, 'periods', 4, wb.periods.map((p) => [p.period_id, p.start_date, p.end_date, p.label]));
    await insertChunks(
      ctx,
      'levels',
      10,
      wb.levels.map((l) => [l.period_id, l.region_code, l.fuel, l.payment_method, l.meter, l.kwh, l.pounds, l.vat_basis, l.sheet, l.cell]),
    );
    ctx.progress(wb.levels.length);
    await insertChunks(
      ctx,
      'rates',
      10,
      rates.map((r) => [r.period_id, r.region_code, r.fuel, r.payment_method, r.meter, r.unit_rate, r.standing_charge, r.unit_rate_ex_vat, r.standing_charge_ex_vat, r.benchmark_kwh]),
    );
    ctx.progress(wb.levels.length + rates.length);
    const newest = wb.periods[wb.periods.length - 1]!;
    return { rows: wb.periods.length + wb.levels.length + rates.length, rejected: 0, mode: 'full', asOf: newest.start_date };
  },

  async verify(conn, result): Promise<void> {
    const n = await queryOne<{ p: number; r: number; l: number }>(
      conn,
      'SELECT (SELECT count(*) FROM periods)::INTEGER AS p, (SELECT count(*) FROM rates)::INTEGER AS r, (SELECT count(*) FROM levels)::INTEGER AS l',
    );
    if (!n || n.p + n.r + n.l !== result.rows) throw new Error(`energy-price-cap: the new file holds ${n?.p}+${n?.l}+${n?.r} rows, the load reported ${result.rows}`);
    const regions = priceCapData().regions.length;
    const perPeriod = await query<{ period_id: string; n: number }>(
      conn,
      "SELECT p.period_id, count(r.period_id)::INTEGER AS n FROM periods p LEFT JOIN rates r ON r.period_id = p.period_id AND r.region_code <> 'gb_average' GROUP BY p.period_id",
    );
    for (const x of perPeriod)
      if (x.n !== regions * COMBOS.length)
        throw new Error(`energy-price-cap: period ${x.period_id} has ${x.n} regional rates, expected ${regions * COMBOS.length}; keeping the previous data`);
  },
};

export default energyPriceCap;
export { energyPriceCap };
