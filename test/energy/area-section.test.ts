/**
 * The energy section of the area profile (src/domains/energy/area-section.ts), built in process
 * (test/support/area-section.ts) on the shipped price cap (data/energy/price-cap.yaml): the period in force
 * on the fixed date (2026-11-21: the October to December 2026 period) and its GB-average Direct Debit
 * figures, as that file writes them.
 */
import { describe, expect, it } from 'vitest';
import { buildSection, place } from '../support/area-section.js';

describe('area section: energy', () => {
  it('the period in force and its GB-average rates in Great Britain; no_coverage elsewhere', async () => {
    const { answer } = await buildSection('energy', place({ country: { price_cap: true } }), '/nonexistent');
    // data/energy/price-cap.yaml, period 2026-10: direct debit 1723; electricity 26.32p / 54.83p a day, gas 7.97p / 29.68p
    expect(answer).toMatchObject({
      status: 'ok', period_id: '2026-10', region: 'gb_average', typical_annual_bill: 1723,
      rates: { electricity: { unit_rate: 26.32, standing_charge: 54.83 }, gas: { unit_rate: 7.97, standing_charge: 29.68 } },
    });
    // Northern Ireland (the price cap covers Great Britain only)
    expect((await buildSection('energy', place({ country: { price_cap: false } }), '/nonexistent')).answer.status).toBe('no_coverage');
  });
});
