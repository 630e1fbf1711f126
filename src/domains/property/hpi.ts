/**
 * /v1/property/hpi and /v1/property/hpi/regions over the mirror's hpi.duckdb (sync/hpi.ts).
 *
 * Record (spec doc 2 "House price index record"): date (first of month), region {code, name}, average_price,
 * index, index_sa, monthly_change, annual_change, average_price_sa, sales_volume, then the breakdowns
 * detached, semi_detached, terraced, flat, ftb, foo ({price, index, monthly_change, annual_change}) and
 * cash, mortgage, new_build, old (the same plus sales_volume). Any value the published row left blank is null.
 * Order: region (name case-insensitively, then code), then date ascending. Regions: [{code, name}] by name.
 */
import { pagination } from '../../contract/envelope.js';
import type { Handler } from '../../contract/types.js';
import { openDataset, pagedQuery, provenanceMeta, query, Where } from '../../mirror/db.js';
import { HPI_INFO } from './datasets.js';

const DATASET = HPI_INFO;

const PLAIN = ['detached', 'semi_detached', 'terraced', 'flat', 'ftb', 'foo'] as const;
const WITH_VOLUME = ['cash', 'mortgage', 'new_build', 'old'] as const;

export interface HpiBreakdown {
  price: number | null;
  index: number | null;
  monthly_change: number | null;
  annual_change: number | null;
}
export interface HpiBreakdownWithVolume extends HpiBreakdown {
  sales_volume: number | null;
}

export interface HpiRecord {
  date: string;
  region: { code: string; name: string };
  average_price: number | null;
  index: number | null;
  index_sa: number | null;
  monthly_change: number | null;
  annual_change: number | null;
  average_price_sa: number | null;
  sales_volume: number | null;
  detached: HpiBreakdown;
  semi_detached: HpiBreakdown;
  terraced: HpiBreakdown;
  flat: HpiBreakdown;
  ftb: HpiBreakdown;
  foo: HpiBreakdown;
  cash: HpiBreakdownWithVolume;
  mortgage: HpiBreakdownWithVolume;
  new_build: HpiBreakdownWithVolume;
  old: HpiBreakdownWithVolume;
}

type Row = Record<string, unknown>;
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** One table row of `hpi` to the API record. */
export function toHpiRecord(r: Row): HpiRecord {
  const part = (p: string): HpiBreakdown => ({
    price: num(r[`${p}_price`]),
    index: num(r[`${p}_index`]),
    monthly_change: num(r[`${p}_monthly_change`]),
    annual_change: num(r[`${p}_annual_change`]),
  });
  const rec: Record<string, unknown> = {
    date: String(r.date),
    region: { code: String(r.region_code), name: String(r.region_name) },
    average_price: num(r.average_price),
    index: num(r.index_value),
    index_sa: num(r.index_sa),
    monthly_change: num(r.monthly_change),
    annual_change: num(r.annual_change),
    average_price_sa: num(r.average_price_sa),
    sales_volume: num(r.sales_volume),
  };
  for (const p of PLAIN) rec[p] = part(p);
  for (const p of WITH_VOLUME) rec[p] = { ...part(p), sales_volume: num(r[`${p}_sales_volume`]) };
  return rec as unknown as HpiRecord;
}

/** First day of the month of a YYYY-MM-DD date. */
export function monthStart(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

export const hpi: Handler = async (req, ctx) => {
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const where = new Where();
  const region = req.query.region as string | undefined;
  if (region !== undefined) where.add('(region_code = ? OR lower(region_name) = lower(?))', region.trim(), region.trim());
  if (req.query.from !== undefined) where.add('date >= CAST(? AS DATE)', monthStart(String(req.query.from)));
  if (req.query.to !== undefined) where.add('date <= CAST(? AS DATE)', monthStart(String(req.query.to)));
  const page = Number(req.query.page ?? 1);
  const perPage = Number(req.query.per_page ?? 25);
  const { rows, total } = await pagedQuery(conn, { from: 'hpi', where, orderBy: 'lower(region_name), region_code, date', page, perPage, stream: { sink: ctx.sink, map: toHpiRecord } });
  return { data: rows.map(toHpiRecord), meta: await provenanceMeta(DATASET, conn), pagination: pagination(total, page, perPage) };
};

export const hpiRegions: Handler = async (_req, ctx) => {
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  // A code's name as in its latest month (names of a code can change over the decades).
  const rows = await query(
    conn,
    `SELECT region_code AS code, arg_max(region_name, date) AS name FROM hpi GROUP BY region_code ORDER BY lower(name), code`,
  );
  return { data: rows.map((r) => ({ code: String(r.code), name: String(r.name) })), meta: await provenanceMeta(DATASET, conn) };
};
