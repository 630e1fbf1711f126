/**
 * The financial parts of the register routes (filing-status `latest_filing`, timeline `accounts_filed`
 * events, sector analytics `financial_benchmarks`/`filing_count`) come from the Companies House accounts
 * data (the `accounts` dataset: accounts-query.ts, sector-financials.ts). This is the one place the register
 * handlers reach it; each function answers null/none when the accounts data is not synced.
 */
import type { HandlerContext } from '../../contract/types.js';
import { openDataset, query, queryOne } from '../../mirror/db.js';
import { isDatasetPresent } from '../../mirror/paths.js';
import { ACCOUNTS } from './accounts-query.js';
import { has, LIVE_HINT } from './common.js';

export { sectorFinancials } from './sector-financials.js';

/** The note of an answer whose financial fields are null because the accounts data is not in the mirror. */
export function accountsNote(ctx: HandlerContext, what: string): string | undefined {
  if (has(ctx, ACCOUNTS)) return undefined;
  return `${what} come from Companies House accounts data, which is not in the local mirror ('publicdata sync accounts'): null here; ${LIVE_HINT}.`;
}

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
