/**
 * The financial parts of the register routes (filing-status `latest_filing`, timeline `accounts_filed`
 * events, sector analytics `financial_benchmarks`/`filing_count`) come from the Companies House accounts
 * data (the `accounts` dataset, financials.ts). This is the one place the register handlers reach it;
 * each function answers null/none when the accounts data is not synced.
 */
import type { HandlerContext } from '../../contract/types.js';
import { has, LIVE_HINT } from './common.js';
import { ACCOUNTS } from './financials.js';

export { accountsEvents, latestFiling, sectorFinancials, type LatestFiling } from './financials.js';

/** The note of an answer whose financial fields are null because the accounts data is not in the mirror. */
export function accountsNote(ctx: HandlerContext, what: string): string | undefined {
  if (has(ctx, ACCOUNTS)) return undefined;
  return `${what} come from Companies House accounts data, which is not in the local mirror ('publicdata sync accounts'): null here; ${LIVE_HINT}.`;
}
