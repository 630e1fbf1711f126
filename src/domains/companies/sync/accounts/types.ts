/**
 * The extractor's data shapes: the output rows (one filing, its period rows, conflicts) and the
 * intermediate ones the fact collector hands to the figure derivation (contexts and raw facts).
 */
import type { Dec } from '../../../../money.js';

export type FilingType = 'full' | 'abridged' | 'filleted' | 'abbreviated' | 'micro' | 'dormant';

export interface PeriodRow {
  period_end: string;
  period_start: string | null;
  is_current: boolean;
  /** Money in pence (exact); null when the filing does not state the figure (never 0 for "absent"). */
  revenue: bigint | null;
  cost_of_sales: bigint | null;
  gross_profit: bigint | null;
  profit_before_tax: bigint | null;
  fixed_assets: bigint | null;
  current_assets: bigint | null;
  current_liabilities: bigint | null;
  /** 'reported' (creditors within one year), 'undimensioned' (CA − NCA equals un-dimensioned Creditors), 'derived'. */
  current_liabilities_basis: 'reported' | 'undimensioned' | 'derived' | null;
  net_current_assets: bigint | null;
  total_assets_less_current_liabilities: bigint | null;
  total_assets: bigint | null;
  /** 'reported' (IFRS Assets), 'sum' (share capital not paid + fixed + current assets + prepayments), 'talcl' (TALCL + current liabilities). */
  total_assets_basis: 'reported' | 'sum' | 'talcl' | null;
  cash: bigint | null;
  net_assets: bigint | null;
  /** Which concept gave net_assets (NetAssetsLiabilities, …, Equity). */
  net_assets_concept: string | null;
  employees: number | null;
  directors_remuneration: bigint | null;
}

export interface Conflict {
  concept: string;
  context: string;
  values: string[];
}

export interface Filing {
  company_number: string;
  company_name: string | null;
  balance_sheet_date: string;
  period_start: string | null;
  filing_type: FilingType | null;
  accounting_standard: string | null;
  dormant: boolean | null;
  format: 'ixbrl' | 'xbrl';
  /** Date of approval (DateAuthorisationFinancialStatementsForIssue) when it parses as a date. */
  date_authorised: string | null;
  facts: number;
  duplicates: number;
  conflicts: Conflict[];
  periods: PeriodRow[];
}

export type ExtractResult = { ok: true; filing: Filing } | { ok: false; reason: string };

export interface Context {
  start?: string;
  end?: string;
  instant?: string;
  /** dimension local name -> member local name (explicit members); typed members make `typed` true. */
  dims: Map<string, string>;
  typed: boolean;
}

export interface RawFact {
  concept: string;
  ctx: string;
  numeric: boolean;
  /** Numeric value after sign and scale (null: nil or no content). */
  value: Dec | null;
  /** Displayed number before scale (counts with a negative scale use it). */
  displayed: Dec | null;
  scale: number;
  decimals: string | undefined;
  text: string;
  format: string | undefined;
  continuedAt: string | undefined;
}
