/**
 * The financial parts of the register routes (filing-status `latest_filing`, timeline `accounts_filed`
 * events, sector analytics `financial_benchmarks`/`filing_count`) come from the Companies House accounts
 * data (a separate dataset, `accounts`). Until it is synced these answer null with a meta note; the
 * accounts module fills them in here, so the register handlers need no change.
 */
import type { HandlerContext } from '../../contract/types.js';
import { DATASETS } from '../../mirror/catalog.js';
import { has, LIVE_HINT } from './common.js';

export const ACCOUNTS = 'accounts';

/** The note of an answer whose financial fields are null because the accounts data is not in the mirror. */
export function accountsNote(ctx: HandlerContext, what: string): string | undefined {
  if (ACCOUNTS in DATASETS && has(ctx, ACCOUNTS)) return undefined;
  return `${what} come from Companies House accounts data, which is not in the local mirror: null here; ${LIVE_HINT}.`;
}

export interface LatestFiling {
  period_end: string;
  filing_type: string | null;
  has_financials: boolean;
  /** When the filing was published (a date). */
  filed_at: string | null;
}

/** The newest accounts filing of a company in the mirror (null when the accounts data is not synced). */
export async function latestFiling(_ctx: HandlerContext, _companyNumber: string): Promise<LatestFiling | null> {
  return null;
}

/** `accounts_filed` timeline events of a company (none when the accounts data is not synced). */
export async function accountsEvents(
  _ctx: HandlerContext,
  _companyNumber: string,
): Promise<Array<{ date: string; type: 'accounts_filed'; description: string; details: { filing_type: string | null; has_financials: boolean } }>> {
  return [];
}

/** The financial part of sector analytics (null when the accounts data is not synced). */
export async function sectorFinancials(
  _ctx: HandlerContext,
  _sic: string,
): Promise<{ financial_benchmarks: { median_revenue: number | null; median_profit_margin: number | null; median_total_assets: number | null } | null; filing_count: number | null; benchmark_calculated_at: string | null }> {
  return { financial_benchmarks: null, filing_count: null, benchmark_calculated_at: null };
}
