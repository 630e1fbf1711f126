/**
 * The VAT return's document validator and unsafe keys (src/domains/manifest.ts DocumentValidator): the
 * runner does not walk a bodyDocument route's body for `__proto__`, `constructor` and `prototype` before
 * validating it; it relies on the validator refusing every key it does not declare and every value of a
 * type it does not take, and walks the body only when the document is refused. So a body with an unsafe
 * key anywhere must still be answered 400 bad_request naming it, as every other route's body is: put at
 * any object of a full body, or hidden in a value where the validator expects something else.
 */
import { describe, expect, it } from 'vitest';
import { Q3_2026, standardCompany, tx, vatReturn } from './helpers.js';
import { UNSAFE_KEYS as UNSAFE, defineOwn, fieldsOf, joinPath as join, objectsOf } from '../../support/unsafe-keys.js';

/**
 * A valid body that uses every field of the document: schemes, partial exemption with an annual adjustment
 * (an object, or `true` with `annualTrue`), a fuel charge down each branch of the CO2 band (a band, CO2
 * figures, an engine size, none) and a given charge, transactions with the optional fields.
 */
function fullBody(annualTrue = false): Record<string, unknown> {
  return {
    company: standardCompany({
      vat_registration_date: '2019-04-01',
      northern_ireland: false,
      partially_exempt: true,
      vat_schemes: [{ scheme: 'standard', effective_from: '2020-01-01', effective_to: null, limited_cost_trader: false, first_year: false, flat_rate_category: 'retailer_food', flat_rate_percentage: 4 }],
      partial_exemption: {
        method: 'standard',
        special_method_recoverable_percentage: 80,
        de_minimis_tests: ['simplified_test_1'],
        annual_adjustment: annualTrue
          ? true
          : { year_months: 12, prior_returns: { taxable_supplies: 1000, exempt_supplies: 100, taxable_input_tax: 50, exempt_input_tax: 5, residual_input_tax: 10, input_tax_recovered: 55 } },
      },
      fuel_scale_charges: [
        { fuel_type: 'petrol', vehicle: 'AB12 CDE', period_months: 3, co2_band: 150, co2_emissions: 152, co2_emissions_secondary: 140, engine_size_cc: 1600 },
        { fuel_type: 'bi_fuel', co2_emissions: 152, co2_emissions_secondary: 140, engine_size_cc: 1600 },
        { fuel_type: 'diesel', engine_size_cc: 1300, co2_emissions_secondary: 140 },
        { fuel_type: 'electric', co2_emissions_secondary: 0 },
        { fuel_type: 'diesel', vat_inclusive_charge: 123.45 },
      ],
    }),
    period: { ...Q3_2026 },
    transactions: [
      tx({ description: 'a sale', payment_date: '2026-08-10', amount_paid: 120, payment_due_date: '2026-08-31', original_transaction_date: '2026-08-01', original_transaction_id: 'X1', scheme_override: 'standard', flat_rate_percentage: 10 }),
      tx({ type: 'purchase', input_tax_attribution: 'taxable', description: 'stock', input_tax_reclaimed: false }),
      tx({ type: 'journal', direction: 'input', input_tax_attribution: 'residual' }),
    ],
  };
}

const VALUES: readonly unknown[] = [1, 'x', true, null, { a: 1 }, [1]];

async function expectRefused(body: unknown, field: string): Promise<void> {
  const r = await vatReturn(body);
  expect({ field, status: r.status, code: r.envelope.error?.code, message: r.envelope.error?.message }).toEqual({
    field,
    status: 400,
    code: 'bad_request',
    message: `Request body field '${field}' is refused: '${field.split('.').at(-1)}' is not allowed as a name (__proto__, constructor and prototype never are: they would change JavaScript's object prototypes, not set a field).`,
  });
}

describe('VAT return: unsafe keys in the document', () => {
  it('the full body is valid, in both forms (so every refusal below is the unsafe key)', async () => {
    for (const annualTrue of [false, true]) {
      const r = await vatReturn(fullBody(annualTrue));
      expect(r.status, JSON.stringify(r.envelope.error)).toBe(200);
    }
  });

  it('an unsafe key added to each object of the body in turn: 400 bad_request naming it', async () => {
    for (const annualTrue of [false, true]) {
    const n = objectsOf(fullBody(annualTrue)).length;
    expect(n).toBeGreaterThan(10);
    for (let at = 0; at < n; at++) {
      for (const [k, key] of UNSAFE.entries()) {
        const body = fullBody(annualTrue);
        const target = objectsOf(body)[at]!;
        defineOwn(target.obj, key, VALUES[(at + k) % VALUES.length]);
        await expectRefused(body, join(target.path, key));
      }
    }
    }
  });

  it('an object holding an unsafe key in place of each field value in turn: 400 bad_request naming it', async () => {
    for (const annualTrue of [false, true]) {
    const n = fieldsOf(fullBody(annualTrue)).length;
    expect(n).toBeGreaterThan(40);
    for (let at = 0; at < n; at++) {
      for (const key of UNSAFE) {
        const body = fullBody(annualTrue);
        const f = fieldsOf(body)[at]!;
        const hidden = {};
        defineOwn(hidden, key, { polluted: true });
        f.obj[f.key] = hidden;
        await expectRefused(body, join(join(f.path, f.key), key));
      }
    }
    }
  });

  it('values of the wrong type the return once ignored are refused: description, vehicle, original_transaction_id, direction, CO2 figures beside a band', async () => {
    const body = fullBody();
    const txns = body.transactions as Array<Record<string, unknown>>;
    txns[0]!.description = 42;
    txns[0]!.original_transaction_id = true;
    txns[1]!.direction = 'sideways';
    const fuel = (body.company as { fuel_scale_charges: Array<Record<string, unknown>> }).fuel_scale_charges[0]!;
    fuel.vehicle = 7;
    fuel.co2_emissions = 'lots';
    const r = await vatReturn(body);
    expect(r.status).toBe(400);
    const fields = (r.envelope.error.details as Array<{ field: string; code: string }>).map((d) => `${d.field} ${d.code}`).sort();
    expect(fields).toEqual([
      'company.fuel_scale_charges[0].co2_emissions INVALID_FIELD_TYPE',
      'company.fuel_scale_charges[0].vehicle INVALID_FIELD_TYPE',
      'transactions[0].description INVALID_FIELD_TYPE',
      'transactions[0].original_transaction_id INVALID_FIELD_TYPE',
      'transactions[1].direction INVALID_ENUM_VALUE',
    ]);
  });
});
