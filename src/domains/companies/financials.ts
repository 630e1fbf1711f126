/**
 * The financial company routes over the mirror's accounts.duckdb (sync/accounts.ts): financials, trends,
 * health, benchmark, benchmarks/{sic}, compare, recent-filings, and the financial parts of filing-status,
 * timeline and sector analytics (exported for the register handlers).
 *
 * Money comes out of DuckDB as exact decimal strings and is computed in whole pence (BigInt); a figure a
 * filing does not state is null, never 0. `meta` says which filings each answer used (`meta.filings`) and
 * what the mirror's window covers (`meta.coverage`). Derivations and thresholds: docs/companies.md.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { statSync } from 'node:fs';
import { pagination } from '../../contract/envelope.js';
import { ApiError } from '../../contract/errors.js';
import type { Handler, HandlerContext, Meta } from '../../contract/types.js';
import { loadData } from '../../data.js';
import { DATASETS } from '../../mirror/catalog.js';
import { openDataset, provenanceMeta, query, queryOne, Where, type Param } from '../../mirror/db.js';
import { isDatasetPresent } from '../../mirror/paths.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const ACCOUNTS = 'accounts';
const COMPANIES = 'companies';

const MONEY = [
  'revenue', 'cost_of_sales', 'gross_profit', 'profit_before_tax', 'total_assets', 'net_assets', 'current_assets',
  'current_liabilities', 'cash', 'directors_remuneration',
] as const;
type MoneyKey = (typeof MONEY)[number];

/** The coverage caveat every financial answer carries. */
const COVERAGE_NOTE =
  'Figures come from the accounts Companies House publishes as (inline) XBRL: electronically filed accounts only (about three quarters of filers), ' +
  'within the synced window. Micro-entity, filleted and abridged accounts carry no profit and loss account, so revenue and profit are null for most companies. ' +
  "total_assets is derived (docs/companies.md); '--source live' answers from the live service.";

// ---------------------------------------------------------------------------------------------------
// Company numbers, money

/** Upper case, spaces removed, digits-only numbers padded to 8; anything else is a 400. */
export function normaliseCompanyNumber(raw: unknown): string {
  const s = String(raw ?? '').replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z0-9]{1,8}$/.test(s) || !/\d/.test(s)) {
    throw new ApiError(400, 'invalid_parameter', `Invalid company number '${String(raw ?? '')}': use the 8-character Companies House number, e.g. 00445790 or SC123456.`);
  }
  return /^\d+$/.test(s) ? s.padStart(8, '0') : s;
}

/** Exact pence from DuckDB's decimal text ('1234.56', '-5.00'); null stays null. */
export function pence(v: unknown): bigint | null {
  if (v === null || v === undefined) return null;
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(String(v));
  if (!m) throw new Error(`not a money value: ${String(v)}`);
  const p = BigInt(m[2]!) * 100n + BigInt((m[3] ?? '').padEnd(2, '0') || '0');
  return m[1] ? -p : p;
}

/** Pounds as a JSON number, from exact pence (the decimal text parsed once, no arithmetic in floats). */
export function pounds(p: bigint | null): number | null {
  if (p === null) return null;
  const neg = p < 0n;
  const a = (neg ? -p : p).toString().padStart(3, '0');
  return Number(`${neg ? '-' : ''}${a.slice(0, -2)}.${a.slice(-2)}`);
}

/** a / b rounded to `dp` decimals (a ratio of two exact amounts; null when undefined). */
export function ratio(a: bigint | null, b: bigint | null, scale = 1, dp = 4): number | null {
  if (a === null || b === null || b === 0n) return null;
  return Math.round((Number(a) / Number(b)) * scale * 10 ** dp) / 10 ** dp;
}

// ---------------------------------------------------------------------------------------------------
// Reading the mirror

const MONEY_SQL = MONEY.map((m) => `p.${m}::VARCHAR AS ${m}`).join(', ');

interface FilingRow {
  filing_id: string;
  company_number: string;
  company_name: string | null;
  balance_sheet_date: string;
  period_start: string | null;
  period_end: string;
  filing_type: string | null;
  accounting_standard: string | null;
  published: string;
  published_precision: string;
  source_zip: string;
  has_financials: boolean;
  employees: number | null;
  total_assets_basis: string | null;
  current_liabilities_basis: string | null;
  net_assets_concept: string | null;
  is_current: boolean;
  [k: string]: unknown;
}

const FILING_SELECT = `SELECT f.filing_id, f.company_number, f.company_name, f.balance_sheet_date, p.period_start, p.period_end,
  f.filing_type, f.accounting_standard, f.published, f.published_precision, f.source_zip, f.has_financials, p.employees,
  p.total_assets_basis, p.current_liabilities_basis, p.net_assets_concept, p.is_current, ${MONEY_SQL}
  FROM accounts_filings f JOIN accounts_periods p USING (filing_id)`;

/** The company's filings (current period rows), newest balance-sheet date first. */
async function currentFilings(conn: DuckDBConnection, n: string, limit?: number): Promise<FilingRow[]> {
  return query<FilingRow>(
    conn,
    `${FILING_SELECT} WHERE f.company_number = ? AND p.company_number = ? AND p.is_current
     ORDER BY f.balance_sheet_date DESC, f.published DESC${limit ? ' LIMIT ?' : ''}`,
    limit ? [n, n, limit] : [n, n],
  );
}

type Money = Record<MoneyKey, bigint | null>;
function moneyOf(r: Record<string, unknown>): Money {
  return Object.fromEntries(MONEY.map((m) => [m, pence(r[m])])) as Money;
}

/** The mirror's window: the first and last publication dates of the zips loaded. */
async function coverage(conn: DuckDBConnection): Promise<{ from: string | null; to: string | null; zips: number }> {
  const r = await queryOne<{ from: string | null; to: string | null; zips: number }>(
    conn, 'SELECT min(published)::VARCHAR AS "from", max(published)::VARCHAR AS "to", count(*)::INTEGER AS zips FROM accounts_zips',
  );
  return { from: r?.from ?? null, to: r?.to ?? null, zips: r?.zips ?? 0 };
}

async function accountsMeta(conn: DuckDBConnection, extra: Record<string, unknown>, keepSourceUrl = true): Promise<Meta> {
  const m = await provenanceMeta(ACCOUNTS, conn, { coverage: await coverage(conn), note: COVERAGE_NOTE, ...extra });
  if (!keepSourceUrl) delete (m as Partial<Meta>).source_url;
  return m;
}

/** Where each figure came from, for meta.filings. */
function provenance(r: FilingRow) {
  return {
    filing_id: r.filing_id, source_zip: r.source_zip, published: r.published, published_precision: r.published_precision,
    period_end: r.period_end, total_assets_basis: r.total_assets_basis, current_liabilities_basis: r.current_liabilities_basis,
    net_assets_concept: r.net_assets_concept,
  };
}

const filedAt = (r: Pick<FilingRow, 'published'>) => `${r.published}T00:00:00Z`;

// The companies dataset (the register), when synced: names, status, SIC codes. Attached read-only to the
// accounts connection so sector queries join in DuckDB; re-attached when a sync replaced the file.
const attached = new WeakMap<DuckDBConnection, { ino: number; mtimeMs: number }>();

async function registerAttached(conn: DuckDBConnection, ctx: HandlerContext): Promise<boolean> {
  const path = join(ctx.mirrorDir, DATASETS[COMPANIES]?.file ?? 'companies.duckdb');
  if (!existsSync(path)) return false;
  const st = statSync(path);
  if (st.size === 0) return false;
  const prev = attached.get(conn);
  if (prev && prev.ino === st.ino && prev.mtimeMs === st.mtimeMs) return true;
  if (prev) await conn.run('DETACH DATABASE IF EXISTS register');
  await conn.run(`ATTACH '${path.replace(/'/g, "''")}' AS register (READ_ONLY)`);
  attached.set(conn, { ino: st.ino, mtimeMs: st.mtimeMs });
  return true;
}

interface RegisterRow {
  company_number: string;
  company_name: string;
  company_status: string | null;
  company_type: string | null;
  incorporation_date: string | null;
  sic_codes: string[] | null;
  sic_texts: string[] | null;
  [k: string]: unknown;
}

async function registerRows(conn: DuckDBConnection, ctx: HandlerContext, numbers: string[]): Promise<Map<string, RegisterRow>> {
  const out = new Map<string, RegisterRow>();
  if (!numbers.length || !(await registerAttached(conn, ctx))) return out;
  const rows = await query<RegisterRow>(
    conn,
    `SELECT company_number, company_name, company_status, company_type, incorporation_date::VARCHAR AS incorporation_date, sic_codes, sic_texts
     FROM register.companies WHERE company_number IN (${numbers.map(() => '?').join(', ')})`,
    numbers,
  );
  for (const r of rows) out.set(r.company_number, r);
  return out;
}

/** The company's name: the register's, else the one stated in its latest accounts, else null. */
async function companyName(conn: DuckDBConnection, ctx: HandlerContext, n: string, fallback: string | null): Promise<string | null> {
  return (await registerRows(conn, ctx, [n])).get(n)?.company_name ?? fallback;
}

// ---------------------------------------------------------------------------------------------------
// {n}/financials

function financialsOf(r: FilingRow) {
  const m = moneyOf(r);
  return {
    revenue: pounds(m.revenue),
    cost_of_sales: pounds(m.cost_of_sales),
    gross_profit: pounds(m.gross_profit),
    profit_before_tax: pounds(m.profit_before_tax),
    total_assets: pounds(m.total_assets),
    net_assets: pounds(m.net_assets),
    employees_count: r.employees,
    current_assets: pounds(m.current_assets),
    current_liabilities: pounds(m.current_liabilities),
    cash: pounds(m.cash),
    directors_remuneration: pounds(m.directors_remuneration),
  };
}

export const financials: Handler = async (req, ctx) => {
  const n = normaliseCompanyNumber(req.params.company_number);
  const limit = Number(req.query.limit ?? 10);
  const conn = await openDataset(ACCOUNTS, ctx.mirrorDir);
  const rows = await currentFilings(conn, n, limit);
  const name = await companyName(conn, ctx, n, rows[0]?.company_name ?? null);
  return {
    data: {
      company_number: n,
      company_name: name,
      filings_count: rows.length,
      filings: rows.map((r) => ({
        period_start: r.period_start,
        period_end: r.period_end,
        filing_type: r.filing_type,
        accounting_standard: r.accounting_standard,
        filed_at: filedAt(r),
        financials: financialsOf(r),
      })),
    },
    // spec: the financials meta has no source_url
    meta: await accountsMeta(conn, { filings: rows.map(provenance) }, false),
  };
};

// ---------------------------------------------------------------------------------------------------
// {n}/trends

const TREND_METRICS = ['revenue', 'profit_before_tax', 'total_assets'] as const;

/** Absolute and percentage change; percentage relative to |from|, 2 decimals; null when not computable. */
export function change(from: bigint | null, to: bigint | null): { absolute: number | null; percentage: number | null } {
  if (from === null || to === null) return { absolute: null, percentage: null };
  const abs = to - from;
  return { absolute: pounds(abs), percentage: from === 0n ? null : ratio(abs, from < 0n ? -from : from, 100, 2) };
}

export const trends: Handler = async (req, ctx) => {
  const n = normaliseCompanyNumber(req.params.company_number);
  const conn = await openDataset(ACCOUNTS, ctx.mirrorDir);
  // every period of every filing (current and comparative); for a period stated twice, the newest filing wins
  const rows = await query<FilingRow>(
    conn,
    `${FILING_SELECT} WHERE f.company_number = ? AND p.company_number = ?
     QUALIFY row_number() OVER (PARTITION BY p.period_end ORDER BY f.balance_sheet_date DESC, f.published DESC) = 1
     ORDER BY p.period_end`,
    [n, n],
  );
  const periods = rows.map((r) => {
    const m = moneyOf(r);
    return { r, m, out: { period_end: r.period_end, filing_type: r.filing_type, metrics: Object.fromEntries(TREND_METRICS.map((k) => [k, pounds(m[k])])) } };
  });
  const trendList = periods.slice(1).map((p, i) => {
    const prev = periods[i]!;
    return {
      from: prev.r.period_end,
      to: p.r.period_end,
      changes: Object.fromEntries(TREND_METRICS.map((k) => [k, change(prev.m[k], p.m[k])])),
    };
  });
  const latest = rows.length ? rows.reduce((a, b) => (a.balance_sheet_date >= b.balance_sheet_date ? a : b)) : undefined;
  return {
    data: {
      company_number: n,
      company_name: await companyName(conn, ctx, n, latest?.company_name ?? null),
      periods_count: periods.length,
      periods: periods.map((p) => p.out),
      trends: trendList,
    },
    meta: await accountsMeta(conn, {
      filings: rows.map(provenance),
      derivation: 'periods are each filing\'s own period and its comparative; where two filings state a period, the newer filing\'s figures are used. percentage = absolute change / |earlier value| x 100.',
    }),
  };
};

// ---------------------------------------------------------------------------------------------------
// {n}/health

interface Threshold {
  formula: string;
  unit: 'ratio' | 'percent';
  direction: 'higher_is_better' | 'lower_is_better';
  green: number;
  amber: number;
  labels: { green: string; amber: string; red: string };
  source: string;
}
type HealthKey = 'current_ratio' | 'debt_to_equity' | 'profit_margin' | 'return_on_assets' | 'cash_ratio';

export function thresholds(): Record<HealthKey, Threshold> {
  return loadData<{ ratios: Record<HealthKey, Threshold> }>('companies/health-thresholds').ratios;
}

export function signal(key: HealthKey, value: number | null, t: Threshold, extraRed = false): 'green' | 'amber' | 'red' | null {
  if (value === null) return null;
  if (extraRed) return 'red';
  if (t.direction === 'higher_is_better') return value >= t.green ? 'green' : value >= t.amber ? 'amber' : 'red';
  return value <= t.green ? 'green' : value <= t.amber ? 'amber' : 'red';
}

/** The five ratios of a period's figures (exact inputs; values rounded to 4 decimals, percentages to 2). */
export function healthOf(m: Money): Record<HealthKey, { value: number | null; signal: 'green' | 'amber' | 'red' | null; label: string }> {
  const T = thresholds();
  const debt = m.total_assets !== null && m.net_assets !== null ? m.total_assets - m.net_assets : null;
  const values: Record<HealthKey, number | null> = {
    current_ratio: ratio(m.current_assets, m.current_liabilities),
    debt_to_equity: ratio(debt, m.net_assets),
    profit_margin: ratio(m.profit_before_tax, m.revenue, 100, 2),
    return_on_assets: ratio(m.profit_before_tax, m.total_assets, 100, 2),
    cash_ratio: ratio(m.cash, m.current_liabilities),
  };
  const out = {} as Record<HealthKey, { value: number | null; signal: 'green' | 'amber' | 'red' | null; label: string }>;
  for (const k of Object.keys(values) as HealthKey[]) {
    const negEquity = k === 'debt_to_equity' && m.net_assets !== null && m.net_assets <= 0n && debt !== null;
    const s = signal(k, values[k], T[k], negEquity);
    out[k] = { value: values[k], signal: s, label: s ? T[k].labels[s] : 'Not computable: the filing does not state the figures needed' };
  }
  return out;
}

export const health: Handler = async (req, ctx) => {
  const n = normaliseCompanyNumber(req.params.company_number);
  const conn = await openDataset(ACCOUNTS, ctx.mirrorDir);
  const [latest] = await currentFilings(conn, n, 1);
  if (!latest) throw new ApiError(404, 'not_found', `No accounts filing for company ${n} in the local mirror (${COVERAGE_NOTE})`);
  return {
    data: {
      company_number: n,
      company_name: await companyName(conn, ctx, n, latest.company_name),
      period_end: latest.period_end,
      health: healthOf(moneyOf(latest)),
    },
    meta: await accountsMeta(conn, { filings: [provenance(latest)], thresholds: thresholds() }),
  };
};

// ---------------------------------------------------------------------------------------------------
// Sector statistics: benchmarks/{sic}, {n}/benchmark, sector analytics

const BENCH_METRICS = ['revenue', 'profit_before_tax', 'total_assets', 'net_assets', 'employees', 'directors_remuneration'] as const;
type BenchMetric = (typeof BENCH_METRICS)[number];

interface Stat {
  median: number | null;
  mean: number | null;
  p25: number | null;
  p75: number | null;
  count: number;
}

/** Latest filing (current period) of every company whose SIC list contains `sic`, as a SQL subquery. */
const SECTOR_LATEST = `SELECT p.*, f.published FROM accounts_filings f JOIN accounts_periods p USING (filing_id)
  SEMI JOIN (SELECT company_number FROM register.companies WHERE list_contains(sic_codes, $1)) s ON s.company_number = f.company_number
  WHERE p.is_current
  QUALIFY row_number() OVER (PARTITION BY f.company_number ORDER BY f.balance_sheet_date DESC, f.published DESC) = 1`;

const round2 = (v: unknown): number | null => (v === null || v === undefined ? null : Math.round(Number(v) * 100) / 100);

/**
 * median (quantile_cont 0.5), mean, p25, p75 (continuous quantiles, linear interpolation) and count of
 * each metric over the sector's latest filings; money rounded to the penny.
 */
async function sectorStats(conn: DuckDBConnection, sic: string): Promise<{ companies: number; stats: Record<BenchMetric, Stat>; margin: number | null; latest: string | null }> {
  const cols = BENCH_METRICS.map((m) => `quantile_cont(${m}, 0.5) AS ${m}_median, avg(${m}) AS ${m}_mean, quantile_cont(${m}, 0.25) AS ${m}_p25,
    quantile_cont(${m}, 0.75) AS ${m}_p75, count(${m})::INTEGER AS ${m}_count`).join(', ');
  const r = (await queryOne<Record<string, unknown>>(
    conn,
    `SELECT count(*)::INTEGER AS companies, max(published)::VARCHAR AS latest,
       quantile_cont(CASE WHEN revenue > 0 AND profit_before_tax IS NOT NULL THEN profit_before_tax / revenue * 100 END, 0.5) AS margin, ${cols}
     FROM (${SECTOR_LATEST})`,
    [sic],
  ))!;
  const stats = {} as Record<BenchMetric, Stat>;
  for (const m of BENCH_METRICS) {
    stats[m] = {
      median: round2(r[`${m}_median`]), mean: round2(r[`${m}_mean`]), p25: round2(r[`${m}_p25`]), p75: round2(r[`${m}_p75`]),
      count: Number(r[`${m}_count`] ?? 0),
    };
  }
  return { companies: Number(r.companies ?? 0), stats, margin: round2(r.margin), latest: (r.latest as string | null) ?? null };
}

async function requireRegister(conn: DuckDBConnection, ctx: HandlerContext, what: string): Promise<void> {
  if (!(await registerAttached(conn, ctx))) {
    throw new ApiError(
      503, 'dataset_not_synced',
      `${what} needs the companies' SIC codes from the register: run 'publicdata sync companies' (about 0.5 GB), or use '--source live'.`,
    );
  }
}

async function sicDescription(conn: DuckDBConnection, sic: string): Promise<{ known: boolean; description: string | null }> {
  const r = await queryOne<{ n: number; d: string | null }>(
    conn,
    `SELECT count(*)::INTEGER AS n, any_value(list_extract(list_filter(sic_texts, x -> starts_with(x, $1 || ' - ')), 1)) AS d
     FROM register.companies WHERE list_contains(sic_codes, $1)`,
    [sic],
  );
  const d = r?.d ? r.d.slice(sic.length + 3) : null;
  return { known: (r?.n ?? 0) > 0, description: d };
}

function validSic(raw: unknown): string {
  const s = String(raw ?? '').trim();
  if (!/^\d{4,5}$/.test(s)) throw new ApiError(400, 'invalid_parameter', `Invalid SIC code '${s}': use a 5-digit SIC 2007 code, e.g. 62012.`);
  return s;
}

export const benchmarks: Handler = async (req, ctx) => {
  const sic = validSic(req.params.sic_code);
  const conn = await openDataset(ACCOUNTS, ctx.mirrorDir);
  await requireRegister(conn, ctx, 'A sector benchmark');
  const desc = await sicDescription(conn, sic);
  if (!desc.known) throw new ApiError(404, 'not_found', `No company on the register has SIC code ${sic}.`);
  const s = await sectorStats(conn, sic);
  return {
    data: {
      sic_code: sic,
      sic_description: desc.description,
      company_count: s.companies,
      metrics: s.stats,
      median_profit_margin: s.margin,
    },
    meta: await accountsMeta(conn, {
      derivation: "each company's latest filing in the mirror among companies whose SIC codes include this one; median, p25 and p75 are continuous quantiles (linear interpolation); mean is the arithmetic mean; money rounded to the penny; count is the number of companies stating the figure",
    }),
  };
};

/** Share of values <= v, as a whole percentage (round half up). */
async function percentileRank(conn: DuckDBConnection, sic: string, metric: BenchMetric, v: bigint | number | null): Promise<number | null> {
  if (v === null) return null;
  const r = await queryOne<{ le: number; n: number }>(
    conn,
    `SELECT count(*) FILTER (WHERE ${metric} <= CAST($2 AS DECIMAL(18,2)))::INTEGER AS le, count(${metric})::INTEGER AS n FROM (${SECTOR_LATEST})`,
    [sic, typeof v === 'bigint' ? String(pounds(v)) : String(v)],
  );
  if (!r || r.n === 0) return null;
  return Math.floor((r.le * 100) / r.n + 0.5);
}

export const benchmark: Handler = async (req, ctx) => {
  const n = normaliseCompanyNumber(req.params.company_number);
  const conn = await openDataset(ACCOUNTS, ctx.mirrorDir);
  await requireRegister(conn, ctx, 'A company benchmark');
  const reg = (await registerRows(conn, ctx, [n])).get(n);
  if (!reg) throw new ApiError(404, 'not_found', `Company ${n} is not on the register in the local mirror.`);
  const sic = reg.sic_codes?.[0];
  if (!sic) throw new ApiError(404, 'not_found', `Company ${n} has no SIC code on the register, so it has no sector to compare with.`);
  const [latest] = await currentFilings(conn, n, 1);
  const m = latest ? moneyOf(latest) : undefined;
  const s = await sectorStats(conn, sic);
  const keys = ['revenue', 'profit_before_tax', 'directors_remuneration'] as const;
  const bench = Object.fromEntries(keys.map((k) => [k, s.stats[k]]));
  const ranks: Record<string, number | null> = {};
  for (const k of keys) ranks[k] = await percentileRank(conn, sic, k, m ? m[k] : null);
  const desc = reg.sic_texts?.find((t) => t.startsWith(`${sic} - `))?.slice(sic.length + 3) ?? null;
  return {
    data: {
      company_number: n,
      company_name: reg.company_name,
      sic_code: sic,
      sic_description: desc,
      company_financials: { revenue: m ? pounds(m.revenue) : null, profit_before_tax: m ? pounds(m.profit_before_tax) : null },
      industry_benchmarks: bench,
      percentile_rankings: ranks,
    },
    meta: await accountsMeta(conn, {
      filings: latest ? [provenance(latest)] : [],
      sector_company_count: s.companies,
      derivation: "sector = the company's first SIC code; statistics over each sector company's latest filing; percentile_rankings = share of the sector's stated values <= the company's, as a whole percentage (null when the company does not state the figure)",
    }),
  };
};

/** The financial part of GET /companies/sectors/{sic}/analytics (null when the accounts data is not synced). */
export async function sectorFinancials(ctx: HandlerContext, sic: string): Promise<{
  financial_benchmarks: { median_revenue: number | null; median_profit_margin: number | null; median_total_assets: number | null } | null;
  filing_count: number | null;
  benchmark_calculated_at: string | null;
}> {
  if (!isDatasetPresent(ACCOUNTS, ctx.mirrorDir)) return { financial_benchmarks: null, filing_count: null, benchmark_calculated_at: null };
  const conn = await openDataset(ACCOUNTS, ctx.mirrorDir);
  if (!(await registerAttached(conn, ctx))) return { financial_benchmarks: null, filing_count: null, benchmark_calculated_at: null };
  const s = await sectorStats(conn, sic);
  const synced = await queryOne<{ t: string | null }>(conn, 'SELECT max(synced_at) AS t FROM sync_log');
  return {
    financial_benchmarks: { median_revenue: s.stats.revenue.median, median_profit_margin: s.margin, median_total_assets: s.stats.total_assets.median },
    filing_count: s.companies,
    benchmark_calculated_at: synced?.t ? new Date(`${String(synced.t).replace(' ', 'T').replace(/Z?$/, 'Z')}`).toISOString() : null,
  };
}

// ---------------------------------------------------------------------------------------------------
// POST compare

export const compare: Handler = async (req, ctx) => {
  const raw = (req.body?.company_numbers ?? []) as unknown[];
  if (!Array.isArray(raw) || raw.length < 2 || raw.length > 10) {
    throw new ApiError(400, 'bad_request', 'company_numbers must be an array of 2 to 10 company numbers.');
  }
  const numbers = raw.map(normaliseCompanyNumber);
  const conn = await openDataset(ACCOUNTS, ctx.mirrorDir);
  const reg = await registerRows(conn, ctx, numbers);
  const haveRegister = await registerAttached(conn, ctx);
  const latest = await query<FilingRow>(
    conn,
    `${FILING_SELECT} WHERE f.company_number IN (${numbers.map(() => '?').join(', ')}) AND p.is_current
     QUALIFY row_number() OVER (PARTITION BY f.company_number ORDER BY f.balance_sheet_date DESC, f.published DESC) = 1`,
    numbers,
  );
  const byNumber = new Map(latest.map((r) => [r.company_number, r]));
  const today = ctx.now();
  const companies = numbers.map((n) => {
    const r = reg.get(n);
    const f = byNumber.get(n);
    const m = f ? moneyOf(f) : undefined;
    return {
      company_number: n,
      company_name: r?.company_name ?? f?.company_name ?? null,
      profile: r
        ? {
          company_status: r.company_status,
          company_type: r.company_type,
          age_years: r.incorporation_date ? wholeYears(r.incorporation_date, today) : null,
          sic_codes: (r.sic_texts ?? []).map((t) => {
            const i = t.indexOf(' - ');
            return i > 0 ? { code: t.slice(0, i), description: t.slice(i + 3) } : { code: t, description: null };
          }),
        }
        : null,
      financials: m ? { revenue: pounds(m.revenue), profit_before_tax: pounds(m.profit_before_tax), total_assets: pounds(m.total_assets) } : null,
    };
  });
  const notes: string[] = [];
  if (!haveRegister) notes.push("profiles are null: the companies register is not in the local mirror (run 'publicdata sync companies')");
  const missing = numbers.filter((n) => haveRegister && !reg.has(n));
  if (missing.length) notes.push(`not on the register in the local mirror: ${missing.join(', ')}`);
  return {
    data: { companies_compared: companies.length, companies },
    meta: await accountsMeta(conn, { filings: latest.map(provenance), ...(notes.length ? { profile_note: notes.join('; ') } : {}) }),
  };
};

/** Whole years from `from` (YYYY-MM-DD) to the date of `now` (UTC). */
export function wholeYears(from: string, now: Date): number {
  const [y, m, d] = from.split('-').map(Number) as [number, number, number];
  let years = now.getUTCFullYear() - y;
  if (now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d)) years--;
  return Math.max(0, years);
}

// ---------------------------------------------------------------------------------------------------
// recent-filings

export const recentFilings: Handler = async (req, ctx) => {
  const page = Number(req.query.page ?? 1);
  const perPage = Number(req.query.per_page ?? 25);
  const conn = await openDataset(ACCOUNTS, ctx.mirrorDir);
  const where = new Where();
  if (req.query.filing_type) where.add('f.filing_type = ?', String(req.query.filing_type).toLowerCase());
  for (const [k, op] of [['from', '>='], ['to', '<=']] as const) {
    const v = req.query[k];
    if (v === undefined) continue;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(String(v)) || Number.isNaN(Date.parse(String(v)))) {
      throw new ApiError(400, 'invalid_parameter', 'Invalid date format. Use YYYY-MM-DD.');
    }
    where.add(`f.published ${op} CAST(? AS DATE)`, String(v));
  }
  if (req.query.sic_code !== undefined) {
    const sic = validSic(req.query.sic_code);
    await requireRegister(conn, ctx, 'Filtering recent filings by SIC code');
    where.add('f.company_number IN (SELECT company_number FROM register.companies WHERE list_contains(sic_codes, ?))', sic);
  }
  const total = (await queryOne<{ n: number }>(conn, `SELECT count(*)::INTEGER AS n FROM accounts_filings f ${where.sql}`, where.params))?.n ?? 0;
  const rows = await query<Record<string, unknown>>(
    conn,
    `SELECT f.company_number, f.balance_sheet_date::VARCHAR AS period_end, f.filing_type, f.has_financials, f.published::VARCHAR AS published
     FROM accounts_filings f ${where.sql} ORDER BY f.published DESC, f.company_number LIMIT ? OFFSET ?`,
    [...where.params, perPage, (page - 1) * perPage] as Param[],
  );
  return {
    data: rows.map((r) => ({
      company_number: r.company_number,
      barcode: null,
      period_end: r.period_end,
      filing_type: r.filing_type,
      has_financials: r.has_financials,
      filed_at: `${String(r.published)}T00:00:00Z`,
    })),
    meta: await accountsMeta(conn, {
      caveat: "barcode is null offline: the bulk accounts data carries no filing barcode or transaction id. filed_at is the publication date of the bulk file (a daily zip's day; for monthly archives the first of the month).",
    }),
    pagination: pagination(total, page, perPage),
  };
};

// ---------------------------------------------------------------------------------------------------
// Parts of the register routes

export interface LatestFiling {
  period_end: string;
  filing_type: string | null;
  has_financials: boolean;
  /** When the filing was published (a date). */
  filed_at: string | null;
}

/** The newest accounts filing of a company in the mirror (null when there is none or no accounts data). */
export async function latestFiling(ctx: HandlerContext, n: string): Promise<LatestFiling | null> {
  if (!isDatasetPresent(ACCOUNTS, ctx.mirrorDir)) return null;
  const conn = await openDataset(ACCOUNTS, ctx.mirrorDir);
  const r = await queryOne<{ period_end: string; filing_type: string | null; has_financials: boolean; published: string }>(
    conn,
    `SELECT balance_sheet_date::VARCHAR AS period_end, filing_type, has_financials, published::VARCHAR AS published
     FROM accounts_filings WHERE company_number = ? ORDER BY balance_sheet_date DESC, published DESC LIMIT 1`,
    [n],
  );
  return r ? { period_end: r.period_end, filing_type: r.filing_type, has_financials: r.has_financials, filed_at: r.published } : null;
}

/** `accounts_filed` timeline events of a company (none when the accounts data is not synced). */
export async function accountsEvents(ctx: HandlerContext, n: string): Promise<Array<{
  date: string; type: 'accounts_filed'; description: string;
  details: { filing_type: string | null; has_financials: boolean; period_end: string; date_precision: 'day' | 'month' };
}>> {
  if (!isDatasetPresent(ACCOUNTS, ctx.mirrorDir)) return [];
  const conn = await openDataset(ACCOUNTS, ctx.mirrorDir);
  const rows = await query<{ period_end: string; filing_type: string | null; has_financials: boolean; published: string; precision: 'day' | 'month' }>(
    conn,
    `SELECT balance_sheet_date::VARCHAR AS period_end, filing_type, has_financials, published::VARCHAR AS published, published_precision AS precision
     FROM accounts_filings WHERE company_number = ? ORDER BY published DESC, balance_sheet_date DESC`,
    [n],
  );
  return rows.map((r) => ({
    date: r.published,
    type: 'accounts_filed' as const,
    description: `${r.filing_type ? `${r.filing_type[0]!.toUpperCase()}${r.filing_type.slice(1)} accounts` : 'Accounts'} made up to ${r.period_end} filed`,
    details: { filing_type: r.filing_type, has_financials: r.has_financials, period_end: r.period_end, date_precision: r.precision },
  }));
}
