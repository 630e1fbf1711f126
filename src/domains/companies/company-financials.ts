/**
 * The per-company financial routes over the mirror's accounts dataset: {n}/financials (the filings, newest
 * first), {n}/trends (period-on-period changes) and {n}/health (five ratios against the shipped thresholds).
 * Shared query helpers: accounts-query.ts. Derivations and thresholds: docs/companies.md.
 */
import { ApiError } from '../../contract/errors.js';
import type { Handler } from '../../contract/types.js';
import { loadData } from '../../data.js';
import { openDataset, query } from '../../mirror/db.js';
import {
  ACCOUNTS, accountsMeta, companyName, COVERAGE_NOTE, currentFilings, FILING_SELECT, filedAt, moneyOf, normaliseCompanyNumber,
  provenance, type FilingRow, type Money,
} from './accounts-query.js';
import { penceRatio, poundsFromPence } from '../../money.js';

// ---------------------------------------------------------------------------------------------------
// {n}/financials

function financialsOf(r: FilingRow) {
  const m = moneyOf(r);
  return {
    revenue: poundsFromPence(m.revenue),
    cost_of_sales: poundsFromPence(m.cost_of_sales),
    gross_profit: poundsFromPence(m.gross_profit),
    profit_before_tax: poundsFromPence(m.profit_before_tax),
    total_assets: poundsFromPence(m.total_assets),
    net_assets: poundsFromPence(m.net_assets),
    employees_count: r.employees,
    current_assets: poundsFromPence(m.current_assets),
    current_liabilities: poundsFromPence(m.current_liabilities),
    cash: poundsFromPence(m.cash),
    directors_remuneration: poundsFromPence(m.directors_remuneration),
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
  return { absolute: poundsFromPence(abs), percentage: from === 0n ? null : penceRatio(abs, from < 0n ? -from : from, 100, 2) };
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
    return { r, m, out: { period_end: r.period_end, filing_type: r.filing_type, metrics: Object.fromEntries(TREND_METRICS.map((k) => [k, poundsFromPence(m[k])])) } };
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
    current_ratio: penceRatio(m.current_assets, m.current_liabilities),
    debt_to_equity: penceRatio(debt, m.net_assets),
    profit_margin: penceRatio(m.profit_before_tax, m.revenue, 100, 2),
    return_on_assets: penceRatio(m.profit_before_tax, m.total_assets, 100, 2),
    cash_ratio: penceRatio(m.cash, m.current_liabilities),
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
