/**
 * Local handlers for the business taxes: VAT, capital gains, dividends, corporation tax
 * (spec doc 3 "VAT" and "Capital gains, dividends, student loans, pensions, corporation tax").
 * Decisions (reference dates, rounding, field choices) are in docs/tax-business.md.
 *
 * Reference date of a tax year: today if the year contains today (by the injected clock, UK civil date),
 * otherwise the last day of the year (5 April). It picks the rates of a year whose rates changed within it
 * (CGT 2024-25, the VAT flat-rate hospitality percentages) when no date is given.
 */
import { Decimal } from 'decimal.js';
import { errors } from '../../contract/errors.js';
import { meta, ok } from '../../contract/envelope.js';
import type { Handler, HandlerContext, Meta } from '../../contract/types.js';
import { toPence, toPounds } from '../../money.js';
import { cgtData, cgtRatePeriod, cgtYears, computeCgt, type CgtAssetType, type CgtBand, type CgtRates } from './cgt.js';
import { computeCorporationTax, ctData, ctYears, financialYearLabelOfDate } from './corporation.js';
import { computeDividendTax, dividendData, dividendYears, type DividendBand } from './dividends.js';
import { resolveTaxYear, taxYearEnd, taxYearOfDate, taxYearStart, ukDate } from './tax-year.js';
import { vatOn, type VatDirection } from './vat.js';
import {
  flatRateCategories,
  flatRateTableEffectiveDate,
  temporaryVatRates,
  vatData,
  vatRate,
} from './vat-data.js';

const HMRC = 'HM Revenue & Customs';
const VAT_NAMES = ['standard', 'reduced', 'zero'] as const;
type VatName = (typeof VAT_NAMES)[number];

function m(sourceUrl: string, asOf: string): Meta {
  return meta({ source: HMRC, source_url: sourceUrl, as_of: asOf });
}

/** Today if the tax year contains it, else the year's last day. */
function referenceDate(taxYear: string, now: Date): string {
  const today = ukDate(now);
  return taxYearOfDate(today) === taxYear ? today : taxYearEnd(taxYear);
}

/** Pounds in a request to integer pence; an amount too large to hold exactly is a 400. */
function pence(value: number, field: string): number {
  try {
    return toPence(value);
  } catch {
    throw errors.badRequest(`${field} is too large.`);
  }
}

/**
 * The tax year and the date of a calculation that takes both an optional tax_year and an optional date.
 * A date picks its own tax year (which must be covered: 400 bad_request otherwise, naming the coverage);
 * a tax_year and a date that disagree are a 400; neither means the current year and today.
 */
function yearAndDate(
  taxYearIn: unknown,
  dateIn: unknown,
  field: string,
  covered: readonly string[],
  now: Date,
): { taxYear: string; date: string } {
  if (typeof dateIn === 'string') {
    const y = taxYearOfDate(dateIn);
    if (!covered.includes(y)) {
      const first = covered[0]!;
      const last = covered[covered.length - 1]!;
      throw errors.badRequest(
        `${field} ${dateIn} is outside the data's coverage (${taxYearStart(first)} to ${taxYearEnd(last)}).`,
      );
    }
    if (taxYearIn !== undefined) {
      const ty = resolveTaxYear(taxYearIn, now, covered);
      if (ty !== y) throw errors.badRequest(`${field} ${dateIn} is not in tax year ${ty} (it is in ${y}).`);
    }
    return { taxYear: y, date: dateIn };
  }
  const taxYear = resolveTaxYear(taxYearIn, now, covered);
  return { taxYear, date: referenceDate(taxYear, now) };
}

/** A fraction from a percentage (14.5 -> 0.145), exactly. */
function percentToFraction(p: number): number {
  return new Decimal(String(p)).div(100).toNumber();
}

// ---------------------------------------------------------------- VAT

function vatYears(): string[] {
  return vatData().meta.tax_years;
}

function vatMeta(): Meta {
  const d = vatData();
  return m(d.meta.source_url, d.meta.as_of);
}

export const vatRates: Handler = (req, ctx) => {
  const taxYear = resolveTaxYear(req.params.tax_year, ctx.now(), vatYears());
  const date = referenceDate(taxYear, ctx.now());
  const rates = VAT_NAMES.map((name) => {
    const r = vatRate(name, date);
    return { name, label: r.label, rate: r.rate, effective_date: r.effective_date, description: r.description };
  });
  const flat = flatRateCategories(date).map((c) => ({
    business_type: c.description,
    code: c.code,
    rate: percentToFraction(c.percentage),
    first_year_rate: percentToFraction(c.first_year_percentage),
  }));
  const temporary = temporaryVatRates(taxYearStart(taxYear), taxYearEnd(taxYear)).map((t) => ({
    name: t.name,
    label: t.label,
    rate: t.rate,
    effective_date: t.from,
    end_date: t.to,
    description: t.description,
  }));
  return ok({ tax_year: taxYear, as_at: date, rates, flat_rate_schemes: flat, temporary_rates: temporary }, vatMeta());
};

export const flatRatePercentages: Handler = (_req, ctx) => {
  const today = ukDate(ctx.now());
  const d = vatData();
  return ok(
    {
      effective_date: flatRateTableEffectiveDate(today) ?? null,
      source: d.flat_rate_scheme.source,
      categories: flatRateCategories(today),
    },
    m(d.flat_rate_scheme.source, d.meta.as_of),
  );
};

export const vatCalculate: Handler = (req, ctx) => {
  const b = req.body as { amount: number; rate: VatName; direction: VatDirection; tax_year?: string; date?: string };
  const { taxYear, date } = yearAndDate(b.tax_year, b.date, 'date', vatYears(), ctx.now());
  const r = vatRate(b.rate, date);
  const amounts = vatOn(pence(b.amount, 'amount'), r.rate, b.direction);
  return ok(
    {
      net_amount: toPounds(amounts.net_pence),
      vat_amount: toPounds(amounts.vat_pence),
      total: toPounds(amounts.total_pence),
      rate: r.rate,
      rate_name: r.label,
      rate_type: b.rate,
      direction: b.direction,
      tax_year: taxYear,
      date,
      effective_date: r.effective_date,
      rounding: b.direction === 'exclusive' ? 'vat_rounded_down_to_penny' : 'vat_rounded_to_nearest_penny_half_up',
    },
    vatMeta(),
  );
};

// ---------------------------------------------------------------- Capital gains

function cgtMeta(): Meta {
  const d = cgtData();
  return m(d.meta.source_url, d.meta.as_of);
}

function cgtRateList(rates: CgtRates): Array<{ asset_type: CgtAssetType; taxpayer_band: CgtBand; rate: number }> {
  const d = cgtData().meta;
  return d.asset_types.flatMap((asset_type) => d.bands.map((taxpayer_band) => ({ asset_type, taxpayer_band, rate: rates[asset_type][taxpayer_band] })));
}

export const cgtRates: Handler = (req, ctx) => {
  const taxYear = resolveTaxYear(req.params.tax_year, ctx.now(), cgtYears());
  const date = referenceDate(taxYear, ctx.now());
  const year = cgtData().years[taxYear]!;
  const period = cgtRatePeriod(taxYear, date)!;
  return ok(
    {
      tax_year: taxYear,
      as_at: date,
      rates: cgtRateList(period.rates),
      rates_by_disposal_date: year.rate_periods.map((p) => ({ from: p.from, to: p.to, rates: cgtRateList(p.rates) })),
    },
    cgtMeta(),
  );
};

export const cgtAllowances: Handler = (req, ctx) => {
  const taxYear = resolveTaxYear(req.params.tax_year, ctx.now(), cgtYears());
  const y = cgtData().years[taxYear]!;
  return ok(
    {
      tax_year: taxYear,
      allowances: [
        { allowance_type: 'annual_exempt_amount', amount: y.annual_exempt_amount },
        { allowance_type: 'business_asset_disposal_lifetime', amount: y.business_asset_disposal_lifetime },
      ],
    },
    cgtMeta(),
  );
};

export const cgtCalculate: Handler = (req, ctx) => {
  const b = req.body as { gain: number; asset_type: CgtAssetType; taxpayer_band: CgtBand; tax_year?: string; disposal_date?: string };
  const { taxYear, date } = yearAndDate(b.tax_year, b.disposal_date, 'disposal_date', cgtYears(), ctx.now());
  const y = cgtData().years[taxYear]!;
  const period = cgtRatePeriod(taxYear, date);
  if (!period) throw errors.badRequest(`No capital gains rates for ${date}.`);
  const r = computeCgt({
    gainPence: pence(b.gain, 'gain'),
    assetType: b.asset_type,
    band: b.taxpayer_band,
    rates: period.rates,
    aeaPence: y.annual_exempt_amount * 100,
    badrLimitPence: y.business_asset_disposal_lifetime * 100,
  });
  const data: Record<string, unknown> = {
    gain: toPounds(r.gain_pence),
    annual_exempt_amount: y.annual_exempt_amount,
    taxable_gain: toPounds(r.taxable_gain_pence),
    rate: r.rate,
    tax: toPounds(r.tax_pence),
    tax_year: taxYear,
    asset_type: b.asset_type,
    taxpayer_band: b.taxpayer_band,
    disposal_date: b.disposal_date ?? null,
    rates_as_at: date,
  };
  if (r.parts.length > 1) {
    // BADR gain above the lifetime limit: show how it was split (tax per part exact, to 4 dp of a pound).
    data.breakdown = r.parts.map((p) => ({
      part: p.description,
      gain: toPounds(p.gain_pence),
      annual_exempt_amount: toPounds(p.annual_exempt_amount_pence),
      taxable_gain: toPounds(p.taxable_pence),
      rate: p.rate,
      tax: new Decimal(p.tax_micro_pence.toString()).div(100_000_000).toDecimalPlaces(4, Decimal.ROUND_DOWN).toNumber(),
    }));
  }
  return ok(data, cgtMeta());
};

// ---------------------------------------------------------------- Dividends

function dividendMeta(): Meta {
  const d = dividendData();
  return m(d.meta.source_url, d.meta.as_of);
}

export const dividendRates: Handler = (req, ctx) => {
  const taxYear = resolveTaxYear(req.params.tax_year, ctx.now(), dividendYears());
  const y = dividendData().years[taxYear]!;
  return ok(
    {
      tax_year: taxYear,
      dividend_allowance: y.dividend_allowance,
      rates: dividendData().meta.bands.map((band) => ({ band, rate: y.rates[band] })),
    },
    dividendMeta(),
  );
};

export const dividendCalculate: Handler = (req, ctx) => {
  const b = req.body as { dividend_income: number; taxpayer_band: DividendBand; tax_year?: string };
  const taxYear = resolveTaxYear(b.tax_year, ctx.now(), dividendYears());
  const y = dividendData().years[taxYear]!;
  const r = computeDividendTax(pence(b.dividend_income, 'dividend_income'), y.dividend_allowance * 100, y.rates[b.taxpayer_band]);
  return ok(
    {
      dividend_income: toPounds(r.dividend_income_pence),
      allowance: y.dividend_allowance,
      taxable_dividends: toPounds(r.taxable_pence),
      rate: r.rate,
      tax: toPounds(r.tax_pence),
      tax_year: taxYear,
      taxpayer_band: b.taxpayer_band,
    },
    dividendMeta(),
  );
};

// ---------------------------------------------------------------- Corporation tax

function ctMeta(): Meta {
  const d = ctData();
  return m(d.meta.source_url, d.meta.as_of);
}

/** The financial year asked for: `tax_year` 'YYYY-YY' = FY YYYY; absent = the financial year containing today. */
function resolveFinancialYear(value: unknown, ctx: HandlerContext): string {
  const covered = ctYears();
  const year = value === undefined || value === null ? financialYearLabelOfDate(ukDate(ctx.now())) : value;
  return resolveTaxYear(year, ctx.now(), covered);
}

function fyPeriod(fy: number): { financial_year: string; start_date: string; end_date: string } {
  return { financial_year: `FY${fy}`, start_date: `${fy}-04-01`, end_date: `${fy + 1}-03-31` };
}

export const corporationRates: Handler = (req, ctx) => {
  const taxYear = resolveFinancialYear(req.params.tax_year, ctx);
  const y = ctData().years[taxYear]!;
  const sp = y.small_profits;
  const rates: Array<Record<string, unknown>> = [];
  if (sp) {
    const f = sp.marginal_relief_fraction;
    rates.push({ rate_type: 'small_profits', rate: sp.rate, upper_limit: sp.lower_limit });
    rates.push({
      rate_type: 'marginal_relief_fraction',
      rate: new Decimal(f.numerator).div(f.denominator).toNumber(),
      fraction: `${f.numerator}/${f.denominator}`,
      lower_limit: sp.lower_limit,
      upper_limit: sp.upper_limit,
    });
    rates.push({ rate_type: 'main', rate: y.main_rate, lower_limit: sp.upper_limit });
  } else {
    rates.push({ rate_type: 'main', rate: y.main_rate });
  }
  return ok({ tax_year: taxYear, ...fyPeriod(y.financial_year), rates }, ctMeta());
};

export const corporationCalculate: Handler = (req, ctx) => {
  const b = req.body as { profit: number; tax_year?: string; associated_companies: number };
  const taxYear = resolveFinancialYear(b.tax_year, ctx);
  const y = ctData().years[taxYear]!;
  const associated = b.associated_companies ?? 0;
  const profitPence = pence(b.profit, 'profit');
  const r = computeCorporationTax(y, profitPence, associated);
  const limit = (x: Decimal | null) => (x === null ? null : x.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toNumber());
  return ok(
    {
      profit: toPounds(profitPence),
      tax_year: taxYear,
      financial_year: `FY${y.financial_year}`,
      rate_type: r.rate_type,
      rate: r.rate,
      tax: toPounds(r.tax_pence),
      effective_rate: r.effective_rate.toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toNumber(),
      marginal_relief: toPounds(r.marginal_relief_pence),
      associated_companies: associated,
      lower_limit: limit(r.lower_limit),
      upper_limit: limit(r.upper_limit),
    },
    ctMeta(),
  );
};
