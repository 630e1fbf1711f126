/**
 * Response schemas of the financial company routes (financials, trends, health, benchmark, benchmarks,
 * compare, recent-filings), transcribed from docs/spec/2-property-companies.md §2 ("Financial filing",
 * "Recent filing item") and §4 Companies. A figure a filing does not state is null, never 0 (the spec
 * types the figures as numbers and is silent on a figure the filing leaves out); benchmarks/{sic_code}
 * is "not shown" in the spec, so its shape is the one built (docs/companies.md). Part of ./schemas.ts.
 */
import {
  arr, bool, date, ext, int, nullable, num, obj, oneOf, str, timestamp, type JsonSchema, type ResponseSchema,
} from '../../contract/schema.js';

export const SPEC = '2-property-companies.md';
/** Company endpoints' meta (§4 "Data notes"): licence, source and, on most, source_url. */
export const META = ['licence', 'source', 'source_url'];

/** A company number: 8 characters (§2 "Company summary"). */
export const COMPANY_NUMBER: JsonSchema = { type: 'string', pattern: '^[A-Z0-9]{8}$', description: '8 characters' };

const NOT_STATED = 'null when the filing does not state it (micro-entity, filleted and abridged accounts carry no profit and loss account)';
/** A money figure in pounds from a filing: a number, null when the filing does not state it. */
const figure = (what = 'pounds'): JsonSchema => nullable(num(`${what}; ${NOT_STATED}`));
/** The company's name: the register's, else the one its latest filing states; null when neither is in the mirror. */
export const NAME_OR_NULL = nullable(str('null when the company is in neither the register snapshot nor a filing in the local mirror'));

// ---------------------------------------------------------------------------------------------------
// {n}/financials (§2 "Financial filing")

const filing = obj({
  period_start: nullable(date('null when the filing does not state the start of its period')),
  period_end: date(),
  filing_type: nullable(str('values seen: full (also micro, abridged, filleted, dormant); null when the filing does not say')),
  accounting_standard: nullable(str('e.g. FRS 102; null when the filing does not say')),
  filed_at: timestamp('the publication date of the bulk accounts file that carried it, at 00:00Z'),
  financials: obj({
    revenue: figure(),
    cost_of_sales: figure(),
    gross_profit: figure(),
    profit_before_tax: figure(),
    total_assets: figure(),
    net_assets: figure(),
    employees_count: nullable(int(`average number of employees; ${NOT_STATED}`)),
    current_assets: ext(figure(), 'current assets, for the health ratios'),
    current_liabilities: ext(figure(), 'creditors due within one year, for the health ratios'),
    cash: ext(figure(), 'cash at bank and in hand, for the cash ratio'),
    directors_remuneration: ext(figure(), "directors' remuneration, for the benchmarks"),
  }),
});

const financials = obj({
  company_number: COMPANY_NUMBER,
  company_name: NAME_OR_NULL,
  filings_count: int(),
  filings: arr(filing),
});

// ---------------------------------------------------------------------------------------------------
// {n}/trends

const TREND_METRICS = ['revenue', 'profit_before_tax', 'total_assets'] as const;
const byTrendMetric = (s: JsonSchema): JsonSchema => obj(Object.fromEntries(TREND_METRICS.map((k) => [k, s])));

const trends = obj({
  company_number: COMPANY_NUMBER,
  company_name: NAME_OR_NULL,
  periods_count: int(),
  periods: arr(obj({ period_end: date(), filing_type: nullable(str()), metrics: byTrendMetric(figure()) })),
  trends: arr(
    obj({
      from: date('period_end of the earlier period'),
      to: date('period_end of the later period'),
      changes: byTrendMetric(
        obj({
          absolute: nullable(num('pounds; null when either period does not state the figure')),
          percentage: nullable(num('percent of |earlier value|; null when either is not stated or the earlier value is 0')),
        }),
      ),
    }),
  ),
});

// ---------------------------------------------------------------------------------------------------
// {n}/health

const HEALTH_KEYS = ['current_ratio', 'debt_to_equity', 'profit_margin', 'return_on_assets', 'cash_ratio'] as const;
const ratio = obj({
  value: nullable(num('null when the filing does not state the figures the ratio needs (the spec is silent on that case)')),
  signal: nullable(oneOf(['green', 'amber', 'red'], 'null with value')),
  label: str(),
});
const health = obj({
  company_number: COMPANY_NUMBER,
  company_name: NAME_OR_NULL,
  period_end: date(),
  health: obj(Object.fromEntries(HEALTH_KEYS.map((k) => [k, ratio]))),
});

// ---------------------------------------------------------------------------------------------------
// Sector statistics: benchmarks/{sic_code} (not shown), {n}/benchmark

const STAT_NULL = 'null when no company in the sector states the figure';
const stat = (withCount: 'spec' | 'ext'): JsonSchema =>
  obj({
    median: nullable(num(STAT_NULL)),
    mean: nullable(num(STAT_NULL)),
    p25: nullable(num(STAT_NULL)),
    p75: nullable(num(STAT_NULL)),
    count: withCount === 'ext' ? ext(int(), 'the number of sector companies stating the figure') : int('the number of sector companies stating the figure'),
  });

const BENCH_METRICS = ['revenue', 'profit_before_tax', 'total_assets', 'net_assets', 'employees', 'directors_remuneration'] as const;
const benchmarks = obj({
  sic_code: str(),
  sic_description: nullable(str()),
  company_count: int('companies with the code whose latest filing is in the mirror'),
  metrics: obj(Object.fromEntries(BENCH_METRICS.map((k) => [k, stat('spec')]))),
  median_profit_margin: nullable(num('percent; null when no company states both revenue and profit')),
});

const RANKED = ['revenue', 'profit_before_tax', 'directors_remuneration'] as const;
const benchmark = obj({
  company_number: COMPANY_NUMBER,
  company_name: str(),
  sic_code: str(),
  sic_description: str(),
  company_financials: obj({ revenue: figure(), profit_before_tax: figure() }),
  industry_benchmarks: obj(Object.fromEntries(RANKED.map((k) => [k, stat('ext')]))),
  percentile_rankings: obj(Object.fromEntries(RANKED.map((k) => [k, nullable(int('null when the company does not state the figure'))]))),
});

// ---------------------------------------------------------------------------------------------------
// POST compare

const compare = obj({
  companies_compared: int(),
  companies: arr(
    obj({
      company_number: COMPANY_NUMBER,
      company_name: NAME_OR_NULL,
      profile: nullable(
        obj(
          {
            company_status: str(),
            company_type: str(),
            age_years: nullable(int('whole years since incorporation; null when the register gives no incorporation date')),
            sic_codes: arr(obj({ code: str(), description: nullable(str()) })),
          },
          { description: 'null when the company is not on the register in the local mirror (meta.profile_note names it)' },
        ),
      ),
      financials: nullable(
        obj(
          { revenue: figure(), profit_before_tax: figure(), total_assets: figure() },
          { description: '"when available": null when the mirror holds no filing of the company' },
        ),
      ),
    }),
  ),
});

// ---------------------------------------------------------------------------------------------------
// recent-filings (§2 "Recent filing item")

const recentFiling = obj({
  company_number: COMPANY_NUMBER,
  barcode: nullable(str('null offline: the bulk accounts data carries no filing barcode (meta.caveat says so)')),
  period_end: date(),
  filing_type: nullable(str('value seen: full; null when the filing does not say')),
  has_financials: bool(),
  filed_at: timestamp('the publication date of the bulk accounts file, at 00:00Z'),
});

export const financialResponses: Readonly<Record<string, ResponseSchema>> = {
  'companies.financials': {
    data: financials,
    meta: ['licence', 'source'],
    source: `${SPEC} §2 "Financial filing", §4 Companies ({company_number}/financials: "meta has no source_url")`,
  },
  'companies.trends': { data: trends, meta: META, source: `${SPEC} §4 Companies ({company_number}/trends)` },
  'companies.health': { data: health, meta: META, source: `${SPEC} §3 Health signal, §4 Companies ({company_number}/health)` },
  'companies.benchmark': { data: benchmark, meta: META, source: `${SPEC} §4 Companies ({company_number}/benchmark)` },
  'companies.benchmarks': {
    data: benchmarks,
    meta: META,
    source: `${SPEC} §4 Companies (benchmarks/{sic_code}: "the response shape: not shown"; as built, docs/companies.md: median, mean, p25, p75 per metric as in {company_number}/benchmark)`,
  },
  'companies.compare': { data: compare, meta: META, source: `${SPEC} §4 Companies (POST compare)` },
  'companies.recent-filings': { data: arr(recentFiling), meta: META, source: `${SPEC} §2 "Recent filing item", §4 Companies (recent-filings)` },
};
