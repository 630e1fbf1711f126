/**
 * Shared query helpers of the financial company routes (company-financials.ts, sector-financials.ts,
 * accounts-link.ts) over the mirror's accounts.duckdb (sync/accounts.ts): company numbers, exact money
 * (whole pence as BigInt), the filing rows, `meta` (coverage, provenance) and the register attached
 * read-only for names and SIC codes.
 *
 * Money comes out of DuckDB as exact decimal strings and is computed in whole pence (BigInt); a figure a
 * filing does not state is null, never 0. `meta` says which filings each answer used (`meta.filings`) and
 * what the mirror's window covers (`meta.coverage`). Derivations and thresholds: docs/companies.md.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../../contract/errors.js';
import type { HandlerContext, Meta } from '../../contract/types.js';
import { provenanceMeta, query, queryOne } from '../../mirror/db.js';
import { ACCOUNTS_INFO, COMPANIES_INFO } from './datasets.js';
import { penceFromText } from '../../money.js';

export const ACCOUNTS = ACCOUNTS_INFO;
const COMPANIES = COMPANIES_INFO;

const MONEY = [
  'revenue', 'cost_of_sales', 'gross_profit', 'profit_before_tax', 'total_assets', 'net_assets', 'current_assets',
  'current_liabilities', 'cash', 'directors_remuneration',
] as const;
type MoneyKey = (typeof MONEY)[number];

/** The coverage caveat every financial answer carries. */
export const COVERAGE_NOTE =
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


// ---------------------------------------------------------------------------------------------------
// Reading the mirror

const MONEY_SQL = MONEY.map((m) => `p.${m}::VARCHAR AS ${m}`).join(', ');

export interface FilingRow {
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

export const FILING_SELECT = `SELECT f.filing_id, f.company_number, f.company_name, f.balance_sheet_date, p.period_start, p.period_end,
  f.filing_type, f.accounting_standard, f.published, f.published_precision, f.source_zip, f.has_financials, p.employees,
  p.total_assets_basis, p.current_liabilities_basis, p.net_assets_concept, p.is_current, ${MONEY_SQL}
  FROM accounts_filings f JOIN accounts_periods p USING (filing_id)`;

/** The company's filings (current period rows), newest balance-sheet date first. */
export async function currentFilings(conn: DuckDBConnection, n: string, limit?: number): Promise<FilingRow[]> {
  return query<FilingRow>(
    conn,
    `${FILING_SELECT} WHERE f.company_number = ? AND p.company_number = ? AND p.is_current
     ORDER BY f.balance_sheet_date DESC, f.published DESC${limit ? ' LIMIT ?' : ''}`,
    limit ? [n, n, limit] : [n, n],
  );
}

export type Money = Record<MoneyKey, bigint | null>;
export function moneyOf(r: Record<string, unknown>): Money {
  return Object.fromEntries(MONEY.map((m) => [m, penceFromText(r[m])])) as Money;
}

/** The mirror's window: the first and last publication dates of the zips loaded. */
async function coverage(conn: DuckDBConnection): Promise<{ from: string | null; to: string | null; zips: number }> {
  const r = await queryOne<{ from: string | null; to: string | null; zips: number }>(
    conn, 'SELECT min(published)::VARCHAR AS "from", max(published)::VARCHAR AS "to", count(*)::INTEGER AS zips FROM accounts_zips',
  );
  return { from: r?.from ?? null, to: r?.to ?? null, zips: r?.zips ?? 0 };
}

export async function accountsMeta(conn: DuckDBConnection, extra: Record<string, unknown>, keepSourceUrl = true): Promise<Meta> {
  const m = await provenanceMeta(ACCOUNTS, conn, { coverage: await coverage(conn), note: COVERAGE_NOTE, ...extra });
  if (!keepSourceUrl) delete (m as Partial<Meta>).source_url;
  return m;
}

/** Where each figure came from, for meta.filings. */
export function provenance(r: FilingRow) {
  return {
    filing_id: r.filing_id, source_zip: r.source_zip, published: r.published, published_precision: r.published_precision,
    period_end: r.period_end, total_assets_basis: r.total_assets_basis, current_liabilities_basis: r.current_liabilities_basis,
    net_assets_concept: r.net_assets_concept,
  };
}

export const filedAt = (r: Pick<FilingRow, 'published'>) => `${r.published}T00:00:00Z`;

// The companies dataset (the register), when synced: names, status, SIC codes. Attached read-only to the
// accounts connection so sector queries join in DuckDB; re-attached when a sync replaced the file.
const attached = new WeakMap<DuckDBConnection, { ino: number; mtimeMs: number }>();

export async function registerAttached(conn: DuckDBConnection, ctx: HandlerContext): Promise<boolean> {
  const path = join(ctx.mirrorDir, COMPANIES.file);
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

export async function registerRows(conn: DuckDBConnection, ctx: HandlerContext, numbers: string[]): Promise<Map<string, RegisterRow>> {
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
export async function companyName(conn: DuckDBConnection, ctx: HandlerContext, n: string, fallback: string | null): Promise<string | null> {
  return (await registerRows(conn, ctx, [n])).get(n)?.company_name ?? fallback;
}
