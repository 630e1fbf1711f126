/**
 * Response schemas of the business-tax routes: VAT rates and calculator, capital gains, dividends,
 * corporation tax (docs/spec/3-tax-vehicles-calendar.md §4 VAT; §4 Capital gains, dividends, student loans,
 * pensions, corporation tax). Additions beyond the spec are `ext()`, documented in docs/tax-business.md.
 */
import { arr, date, ext, int, nullable, num, obj, oneOf, str, type JsonSchema, type ResponseSchemas } from '../../contract/schema.js';
import { META, SPEC, taxYear } from './schemas-common.js';

const VAT_RATE_NAMES = ['standard', 'reduced', 'zero'] as const;

const vatRates = obj({
  tax_year: ext(taxYear(), 'the tax year asked for'),
  as_at: ext(date(), 'the date whose rates are shown: today in the current year, else the year’s last day'),
  rates: arr(obj({ name: oneOf(VAT_RATE_NAMES), label: str(), rate: num('fraction'), effective_date: date(), description: str() })),
  flat_rate_schemes: arr(
    obj({
      business_type: str('the flat-rate table’s description'),
      code: ext(str(), 'the category code of flat-rate-percentages'),
      rate: num('fraction'),
      first_year_rate: ext(num(), 'fraction in the first year of registration (1 point lower)'),
    }),
  ),
  temporary_rates: ext(
    arr(obj({ name: str(), label: str(), rate: num(), effective_date: date(), end_date: date(), description: str() })),
    'temporary rates in force in the year (the 2020-22 hospitality rates), which are not the reduced rate',
  ),
});

const flatRatePercentages = obj({
  effective_date: date(),
  source: str(),
  categories: arr(obj({ code: str(), description: str(), percentage: num('percent'), first_year_percentage: num('percent; 1 point lower for newly registered businesses') })),
});

const vatCalculate = obj({
  net_amount: num(),
  vat_amount: num(),
  total: num(),
  rate: num('fraction'),
  rate_name: str('the rate’s label'),
  rate_type: oneOf(VAT_RATE_NAMES, 'the requested rate (values beyond standard: "not shown"; the three of GET rates)'),
  direction: oneOf(['exclusive', 'inclusive']),
  tax_year: ext(taxYear(), 'the tax year of the supply date'),
  date: ext(date(), 'the supply date whose rate applied'),
  effective_date: ext(date(), 'since when that rate applies'),
  rounding: ext(oneOf(['vat_rounded_down_to_penny', 'vat_rounded_to_nearest_penny_half_up']), 'the rounding rule applied (docs/tax-business.md)'),
});

// ---------------------------------------------------------------- capital gains, dividends

const CGT_ASSETS = ['residential_property', 'other_assets', 'business_asset_disposal'] as const;
const CGT_BANDS = ['basic', 'higher'] as const;
const cgtRate = obj({ asset_type: oneOf(CGT_ASSETS), taxpayer_band: oneOf(CGT_BANDS), rate: num('fraction') });

const cgtRates = obj({
  tax_year: taxYear(),
  as_at: ext(date(), 'the date whose rates `rates` holds'),
  rates: arr(cgtRate),
  rates_by_disposal_date: ext(arr(obj({ from: date(), to: date(), rates: arr(cgtRate) })), 'every rate period of the year (2024-25 changed on 30 Oct 2024)'),
});
const cgtAllowances = obj({
  tax_year: taxYear(),
  allowances: arr(obj({ allowance_type: oneOf(['annual_exempt_amount', 'business_asset_disposal_lifetime']), amount: num() })),
});
const cgtCalculate = obj(
  {
    gain: num(),
    annual_exempt_amount: num(),
    taxable_gain: num(),
    rate: num('fraction'),
    tax: num(),
    tax_year: taxYear(),
    asset_type: oneOf(CGT_ASSETS),
    taxpayer_band: oneOf(CGT_BANDS),
    disposal_date: ext(nullable(date()), 'as given, or null'),
    rates_as_at: ext(date(), 'the date whose rates applied'),
    breakdown: ext(
      arr(obj({ part: str(), gain: num(), annual_exempt_amount: num(), taxable_gain: num(), rate: num(), tax: num('exact to 4 dp of a pound') })),
      'a business asset disposal gain above the lifetime limit: its parts',
    ),
  },
  { optional: ['breakdown'] },
);

const DIVIDEND_BANDS = ['basic', 'higher', 'additional'] as const;
const dividendRates = obj({ tax_year: taxYear(), dividend_allowance: num(), rates: arr(obj({ band: oneOf(DIVIDEND_BANDS), rate: num('fraction') })) });
const dividendCalculate = obj({
  dividend_income: num(),
  allowance: num('the year’s allowance'),
  taxable_dividends: num(),
  rate: num('fraction'),
  tax: num(),
  tax_year: taxYear(),
  taxpayer_band: oneOf(DIVIDEND_BANDS),
});

// ---------------------------------------------------------------- corporation tax

const financialYear = (): JsonSchema => ext({ type: 'string', pattern: '^FY\\d{4}$' }, 'the financial year (FY YYYY = 1 April YYYY to 31 March YYYY+1) that tax_year YYYY-YY names');

const corporationRates = obj({
  tax_year: taxYear(),
  financial_year: financialYear(),
  start_date: ext(date(), '1 April'),
  end_date: ext(date(), '31 March'),
  rates: arr(
    obj(
      {
        rate_type: oneOf(['small_profits', 'marginal_relief_fraction', 'main']),
        rate: num('fraction'),
        fraction: ext(str(), 'the marginal relief fraction as a ratio (3/200)'),
        lower_limit: num(),
        upper_limit: num(),
      },
      { optional: ['fraction', 'lower_limit', 'upper_limit'] },
    ),
  ),
});
const corporationCalculate = obj({
  profit: num(),
  tax_year: taxYear(),
  financial_year: financialYear(),
  rate_type: oneOf(['small_profits', 'marginal_relief', 'main'], '"applies the small profits rate, the main rate or marginal relief" (values not listed by the spec)'),
  rate: ext(num(), 'the rate charged before marginal relief'),
  tax: num(),
  effective_rate: num('fraction, 4 dp'),
  marginal_relief: num(),
  associated_companies: ext(int(), 'as given (default 0); divide the limits'),
  lower_limit: ext(nullable(num()), 'the lower limit after associated companies; null before FY2023'),
  upper_limit: ext(nullable(num()), 'the upper limit after associated companies; null before FY2023'),
});

// ---------------------------------------------------------------- the routes

const both = (id: string, data: JsonSchema, source: string): ResponseSchemas => ({
  [id]: { data, meta: META, source },
  [`${id}.year`]: { data, meta: META, source },
});
const CAP = `${SPEC} §4 Capital gains, dividends, student loans, pensions, corporation tax`;

export const businessResponses: ResponseSchemas = {
  ...both('tax.vat.rates', vatRates, `${SPEC} §4 VAT (rates)`),
  'tax.vat.flat-rate-percentages': { data: flatRatePercentages, meta: META, source: `${SPEC} §4 VAT (flat-rate-percentages)` },
  'tax.vat.calculate': { data: vatCalculate, meta: META, source: `${SPEC} §4 VAT (POST calculate)` },
  ...both('tax.cgt.rates', cgtRates, CAP),
  ...both('tax.cgt.allowances', cgtAllowances, CAP),
  'tax.cgt.calculate': { data: cgtCalculate, meta: META, source: CAP },
  ...both('tax.dividends.rates', dividendRates, CAP),
  'tax.dividends.calculate': { data: dividendCalculate, meta: META, source: CAP },
  ...both('tax.corporation.rates', corporationRates, CAP),
  'tax.corporation.calculate': { data: corporationCalculate, meta: META, source: CAP },
};
