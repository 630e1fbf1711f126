/**
 * Response schema of POST /v1/tax/vat/return/calculate (docs/spec/3-tax-vehicles-calendar.md §4 VAT): the spec
 * states `return_period`, the nine boxes (`value`, `exact_value`), `warnings` (an array), `scheme_summary` and
 * `rounding_summary`, with `meta.source` and `meta.source_url`; GOVDATA-NOTES.md §Tax says the scheme and
 * rounding summaries are in every response and `breakdown_detail` is full/summary/none. The layout of the
 * warnings, the breakdown, partial exemption and fuel scale charges is not stated: those parts are the
 * shape as built (docs/tax-vat-return.md "Response"), declared as extensions.
 */
import { arr, bool, constant, date, ext, int, nullable, num, obj, oneOf, str, anyOf, record, type JsonSchema, type ResponseSchemas } from '../../contract/schema.js';
import { META_SOURCE, SPEC } from './schemas-common.js';

const SCHEMES = ['standard', 'flat_rate', 'cash_accounting', 'annual_accounting'] as const;
const TYPES = ['sale', 'purchase', 'credit_note_issued', 'credit_note_received', 'debit_note_issued', 'debit_note_received', 'bad_debt_relief', 'journal'] as const;
const SUPPLIES = [
  'domestic', 'domestic_reverse_charge', 'ec_supply_goods', 'ec_supply_services', 'ec_acquisition_goods',
  'ec_acquisition_services', 'export_outside_ec', 'import_outside_ec', 'import_postponed_vat', 'outside_scope',
] as const;
/** `vat_rate` values: "allowed values beyond standard: not shown"; those the request accepts (docs/tax-vat-return.md). */
const VAT_RATES = oneOf(['standard', 'reduced', 'zero', 'hospitality_reduced', 'exempt', 'outside_scope'], 'values beyond standard are "not shown" by the spec: those the request accepts');
const BOXES = ['box_1', 'box_2', 'box_3', 'box_4', 'box_5', 'box_6', 'box_7', 'box_8', 'box_9'] as const;

const fields = (make: (box: string) => [string, JsonSchema]) => Object.fromEntries(BOXES.map(make));

const boxes = obj(
  fields((b) => [b, obj({ value: num(b <= 'box_5' ? 'as entered: pounds and pence' : 'as entered: whole pounds'), exact_value: num('before rounding') })]),
);
const roundingSummary = obj(fields((b) => [`${b}_rounding`, num('value minus exact_value, pounds')]));

const warning = obj({ code: str(), message: str(), field: str() }, { optional: ['field'], description: 'layout not stated by the spec ("warnings (array)"): as built, {code, message, field?}' });

const schemeSummary = obj(
  {
    scheme: oneOf(SCHEMES),
    effective_from: date(),
    effective_to: nullable(date()),
    transaction_count: int(),
    implied: ext(bool(), 'an entry publicdata implied (no vat_schemes given, or a scheme override outside any standard entry)'),
    flat_rate_category: ext(str(), 'the flat-rate entry’s category'),
    flat_rate_percentage: ext(num(), 'the flat-rate entry’s percentage'),
    limited_cost_trader: ext(bool(), 'the flat-rate entry is a limited cost trader'),
  },
  { optional: ['implied', 'flat_rate_category', 'flat_rate_percentage', 'limited_cost_trader'] },
);

// ---------------------------------------------------------------- additions (layout not stated)

/** The boxes a category or transaction reaches (non-zero ones only; exact contributions, pounds). */
const reached = obj(
  { box_1: num(), box_2: num(), box_4: num(), box_6: num(), box_7: num(), box_8: num(), box_9: num() },
  { optional: ['box_1', 'box_2', 'box_4', 'box_6', 'box_7', 'box_8', 'box_9'] },
);

const category = obj({
  type: oneOf(TYPES),
  supply_type: oneOf(SUPPLIES),
  vat_rate: VAT_RATES,
  scheme: oneOf(SCHEMES),
  transaction_count: int(),
  net_amount: num(),
  vat_amount: num(),
  gross_amount: num(),
  boxes: reached,
});

const includedRow = obj(
  {
    index: int(),
    id: str(),
    date: date(),
    accounting_date: date(),
    scheme: oneOf(SCHEMES),
    type: oneOf(TYPES),
    supply_type: oneOf(SUPPLIES),
    vat_rate: VAT_RATES,
    included: constant(true),
    boxes: reached,
    flat_rate_percentage: num(),
    counted: obj({ net_amount: num(), vat_amount: num(), gross_amount: num() }),
    input_tax_attribution: oneOf(['taxable', 'exempt', 'residual']),
  },
  { optional: ['flat_rate_percentage', 'counted', 'input_tax_attribution'] },
);
const excludedRow = obj({ index: int(), id: str(), date: date(), scheme: oneOf(SCHEMES), included: constant(false), excluded_reason: str(), boxes: obj({}) });
const fuelRow = obj({ fuel_scale_charge: int(), vehicle: nullable(str()), included: constant(true), boxes: reached });
const peRow = obj({ partial_exemption: oneOf(['restriction', 'annual_adjustment']), included: constant(true), boxes: reached });

const breakdown = ext(
  obj(
    {
      categories: arr(category, 'summary and full: totals per (type, supply_type, vat_rate, scheme)'),
      transactions: arr(anyOf(includedRow, excludedRow, fuelRow, peRow), 'full only: each transaction, then fuel scale charge and partial exemption rows'),
    },
    { optional: ['transactions'] },
  ),
  'breakdown_detail summary (default) or full; absent with none. Layout not stated by the spec: as built (docs/tax-vat-return.md "Response")',
);

const DE_MINIMIS = ['simplified_test_1', 'simplified_test_2', 'full_test'] as const;
const peFigures = {
  taxable_input_tax: num(),
  exempt_input_tax: num(),
  residual_input_tax: num(),
  taxable_supplies: num(),
  exempt_supplies: num(),
  recoverable_percentage: nullable(num('percent')),
  percentage_basis: str(),
  recoverable_residual_input_tax: num(),
  total_exempt_input_tax: num(),
  de_minimis: obj({ limit: num(), tests: record(bool(), 'the tests asked for: passed or not'), passed: nullable(oneOf(DE_MINIMIS)) }),
  input_tax_recoverable: num(),
};
const partialExemption = ext(
  obj(
    {
      method: oneOf(['standard', 'special']),
      period_months: num(),
      ...peFigures,
      restriction: num('change to box 4'),
      annual_adjustment: obj({
        year_months: num(),
        ...peFigures,
        input_tax_recovered_in_prior_returns: num(),
        input_tax_recoverable_this_period: num(),
        adjustment: num('change to box 4'),
      }),
    },
    { optional: ['annual_adjustment'] },
  ),
  'only for a partly exempt company (VAT Notice 706). Layout not stated by the spec: as built',
);

const fuelScaleCharges = ext(
  arr(
    obj({
      index: int(),
      vehicle: nullable(str()),
      fuel_type: oneOf(['petrol', 'diesel', 'hybrid', 'bi_fuel', 'electric', 'other']),
      co2_band: nullable(str()),
      basis: str(),
      table_valid_from: nullable(date()),
      vat_inclusive_charge: num(),
      vat: num(),
      vat_exclusive_charge: num(),
    }),
  ),
  'only when fuel scale charges are given (VAT Notice 700/64). Layout not stated by the spec: as built',
);

const vatReturn = obj(
  {
    return_period: obj({ start_date: date(), end_date: date() }),
    boxes,
    warnings: arr(warning),
    scheme_summary: arr(schemeSummary),
    rounding_summary: roundingSummary,
    partial_exemption: partialExemption,
    fuel_scale_charges: fuelScaleCharges,
    breakdown,
  },
  { optional: ['partial_exemption', 'fuel_scale_charges', 'breakdown'] },
);

export const vatReturnResponses: ResponseSchemas = {
  'tax.vat.return.calculate': {
    data: vatReturn,
    meta: META_SOURCE,
    source: `${SPEC} §4 VAT (POST vat/return/calculate); GOVDATA-NOTES.md §Tax. Warnings items, breakdown, partial_exemption and fuel_scale_charges: layout not stated, as built (docs/tax-vat-return.md)`,
  },
};
