/** Income tax: bands and the calculation. Handlers of the personal-tax routes (spec doc 3 §4 "Tax"; shapes designed in docs/tax-personal.md). */
import { meta, ok } from '../../../contract/envelope.js';
import type { Handler } from '../../../contract/types.js';
import { incomeTax, MaIneligible, type IncomeTaxResult, type Region } from '../personal-calc.js';
import { type Band, type YearParams } from '../personal-params.js';
import { HMRC, URL_INCOME_TAX, gbp, amountP, ratio4, calcYear, maErrorToApi } from './common.js';

/**
 * Band edges on GROSS income with the standard allowance (GOVDATA-NOTES): from = PA + lower limit, to = PA +
 * upper limit; limits at or above the end of the taper zone (where the allowance is nil) are shown unchanged.
 */
function grossBands(bands: Band[], year: YearParams, withLabel: boolean): Record<string, unknown>[] {
  const paP = year.it.paP;
  const taperEndP = year.it.taperThresholdP === null ? Infinity : year.it.taperThresholdP + 2 * paP;
  const edgeP = (limitP: number): number => (limitP >= taperEndP ? limitP : limitP + paP);
  let lowerP = 0;
  return bands.map((b) => {
    const toP = b.limitP === Infinity ? null : b.limitP;
    const out: Record<string, unknown> = { name: b.name };
    if (withLabel && b.label) out.label = b.label;
    out.rate = b.rate;
    out.from = gbp(lowerP === 0 ? paP : edgeP(lowerP));
    out.to = toP === null ? null : gbp(edgeP(toP));
    lowerP = toP ?? 0;
    return out;
  });
}

export const incomeBands: Handler = (req, ctx) => {
  const y = calcYear(req.params.tax_year, ctx);
  const data = {
    tax_year: y.year,
    personal_allowance: gbp(y.it.paP),
    personal_allowance_taper_threshold: y.it.taperThresholdP === null ? null : gbp(y.it.taperThresholdP),
    regions: {
      england_wales_ni: { bands: grossBands(y.it.ruk, y, true) },
      scotland: { bands: grossBands(y.it.scot, y, !y.it.scotOwn) },
    },
  };
  return ok(data, meta({ source: HMRC, source_url: URL_INCOME_TAX }));
};

export function breakdownOut(it: IncomeTaxResult): Record<string, unknown>[] {
  return it.slices.map((s) => ({ band: s.band.name, rate: s.band.rate, taxable_amount: gbp(s.amountP), tax: gbp(s.taxP) }));
}

export function maOut(y: YearParams, it: IncomeTaxResult, body: Record<string, unknown>): Record<string, unknown> | undefined {
  if (body.marriage_allowance_recipient === true) {
    return { role: 'recipient', eligible: true, transferred_amount: gbp(y.it.ma!.transferableP), tax_reduction: gbp(it.maReductionP) };
  }
  if (body.marriage_allowance_transferor === true && y.it.ma) {
    return { role: 'transferor', eligible: true, transferred_amount: gbp(y.it.ma.transferableP), tax_reduction: 0 };
  }
  return undefined;
}

export const incomeCalculate: Handler = (req, ctx) => {
  const b = req.body as Record<string, unknown>;
  const y = calcYear(b.tax_year, ctx);
  const region = b.region as Region;
  const grossP = amountP(b.gross_income as number, 'gross_income');
  if (b.marriage_allowance_transferor === true && !y.it.ma) maErrorToApi(new MaIneligible('no Marriage Allowance this year'), region);
  let it: IncomeTaxResult;
  try {
    it = incomeTax(y, { grossP, region, maRecipient: b.marriage_allowance_recipient === true, maTransferor: b.marriage_allowance_transferor === true, bpa: b.blind_persons_allowance === true });
  } catch (e) {
    maErrorToApi(e, region);
  }
  const data: Record<string, unknown> = {
    gross_income: gbp(grossP),
    personal_allowance: gbp(it.paP),
    taxable_income: gbp(it.taxableP),
    tax_year: y.year,
    region,
    breakdown: breakdownOut(it),
    total_income_tax: gbp(it.totalP),
    effective_rate: ratio4(it.totalP, grossP),
  };
  const ma = maOut(y, it, b);
  if (ma) data.marriage_allowance = ma;
  if (b.blind_persons_allowance === true) data.blind_persons_allowance = gbp(y.it.bpaP ?? 0);
  return ok(data, meta({ source: HMRC, source_url: URL_INCOME_TAX }));
};
