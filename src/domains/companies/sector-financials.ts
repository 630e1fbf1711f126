/**
 * The sector financial routes over the mirror's accounts dataset joined with the register (SIC codes):
 * benchmarks/{sic}, {n}/benchmark, POST compare, recent-filings, and the financial part of sector analytics
 * (sectorFinancials, for the register handlers via accounts-link.ts). Shared query helpers: accounts-query.ts.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { pagination } from '../../contract/envelope.js';
import { ApiError } from '../../contract/errors.js';
import type { Handler, HandlerContext } from '../../contract/types.js';
import { isValidDate } from '../../contract/validate.js';
import { openDataset, query, queryOne, Where, type Param } from '../../mirror/db.js';
import { isDatasetPresent } from '../../mirror/paths.js';
import {
  ACCOUNTS, accountsMeta, currentFilings, FILING_SELECT, moneyOf, normaliseCompanyNumber, provenance, registerAttached,
  registerRows, type FilingRow,
} from './accounts-query.js';
import { divRoundBig, poundsFromPence } from '../../money.js';

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

/** A percentage (not an amount) to 2 decimal places, for display. */
const round2 = (v: unknown): number | null => (v === null || v === undefined ? null : Math.round(Number(v) * 100) / 100);

/**
 * A quartile of hundredths (pence, or employees x 100) as DuckDB's quantile_cont gives it: an integer plus
 * 0, 1/4, 1/2 or 3/4 (linear interpolation at 0.25, 0.5, 0.75 of the way), which a double holds exactly;
 * rounded half away from zero to whole hundredths, then to pounds from the exact text.
 */
function quartileOfHundredths(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  const x = Number(v);
  return poundsFromPence(BigInt(Math.sign(x) * Math.round(Math.abs(x))));
}

/** The mean of hundredths from their exact sum (HUGEINT text) and count, half away from zero. */
function meanOfHundredths(sum: unknown, count: number): number | null {
  if (sum === null || sum === undefined || count === 0) return null;
  return poundsFromPence(divRoundBig(BigInt(String(sum)), BigInt(count), 'half-up'));
}

/**
 * median (quantile_cont 0.5), mean, p25, p75 (continuous quantiles, linear interpolation) and count of
 * each metric over the sector's latest filings; money to the penny, computed on integer pence (no
 * floating-point arithmetic on an amount: docs/companies.md "Rounding").
 */
async function sectorStats(conn: DuckDBConnection, sic: string): Promise<{ companies: number; stats: Record<BenchMetric, Stat>; margin: number | null; latest: string | null }> {
  const cols = BENCH_METRICS.map((m) => {
    const h = `(${m} * 100)::BIGINT`;
    return `quantile_cont(${h}, 0.5) AS ${m}_median, sum(${h})::HUGEINT::VARCHAR AS ${m}_sum, quantile_cont(${h}, 0.25) AS ${m}_p25,
    quantile_cont(${h}, 0.75) AS ${m}_p75, count(${m})::INTEGER AS ${m}_count`;
  }).join(', ');
  const r = (await queryOne<Record<string, unknown>>(
    conn,
    `SELECT count(*)::INTEGER AS companies, max(published)::VARCHAR AS latest,
       quantile_cont(CASE WHEN revenue > 0 AND profit_before_tax IS NOT NULL THEN profit_before_tax / revenue * 100 END, 0.5) AS margin, ${cols}
     FROM (${SECTOR_LATEST})`,
    [sic],
  ))!;
  const stats = {} as Record<BenchMetric, Stat>;
  for (const m of BENCH_METRICS) {
    const count = Number(r[`${m}_count`] ?? 0);
    stats[m] = {
      median: quartileOfHundredths(r[`${m}_median`]), mean: meanOfHundredths(r[`${m}_sum`], count),
      p25: quartileOfHundredths(r[`${m}_p25`]), p75: quartileOfHundredths(r[`${m}_p75`]),
      count,
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
    [sic, typeof v === 'bigint' ? String(poundsFromPence(v)) : String(v)],
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
      company_financials: { revenue: m ? poundsFromPence(m.revenue) : null, profit_before_tax: m ? poundsFromPence(m.profit_before_tax) : null },
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
      financials: m ? { revenue: poundsFromPence(m.revenue), profit_before_tax: poundsFromPence(m.profit_before_tax), total_assets: poundsFromPence(m.total_assets) } : null,
    };
  });
  const notes: string[] = [];
  if (!haveRegister) notes.push("profiles are null: the companies register is not in the local mirror (run 'publicdata sync companies')");
  const missing = numbers.filter((n) => haveRegister && !reg.has(n));
  if (missing.length) notes.push(`not on the register in the local mirror: ${missing.join(', ')}`);
  return {
    data: { companies_compared: companies.length, companies },
    // In the order the numbers were asked for (the QUALIFY query's row order is not defined).
    meta: await accountsMeta(conn, {
      filings: numbers.flatMap((n) => (byNumber.has(n) ? [provenance(byNumber.get(n)!)] : [])),
      ...(notes.length ? { profile_note: notes.join('; ') } : {}),
    }),
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
    // The route declares both as `date` (refused before this runs); kept for direct callers. A real
    // calendar date: Date.parse accepts 2026-02-30, which DuckDB's CAST then refuses.
    if (!isValidDate(String(v))) {
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
