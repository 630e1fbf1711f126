/**
 * The energy domain's conformance samples (test/server/conformance.test.ts, via test/support/route-samples.ts):
 * one valid call per route, some error calls, and how the fixture mirror gets its data: shipped data (the synced workbook is optional).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { DomainSamples } from '../support/samples-types.js';
import { syncFrom } from '../support/sync-from.js';
// @ts-expect-error plain ESM generator shared with the bench
import { generateLevelsWorkbook } from '../../bench/lib/energy-workbook.mjs';

export const samples: DomainSamples = {
  unansweredExamples: {
    'energy bill --electricity 2700 --gas 11500 --region london': { code: 1, error: 'dataset_not_synced', why: 'the fixture is the shipped GB-average rates only: no regional rates' },
    'energy bill --electricity 2700 --gas 11500 --region london --payment prepayment': { code: 1, error: 'dataset_not_synced', why: 'the fixture is the shipped GB-average rates only: no regional rates' },
  },
  routes: [
    { route: 'energy.price-cap.periods', method: 'GET', path: '/v1/energy/price-cap/periods?per_page=5' },
    { route: 'energy.price-cap.periods.current', method: 'GET', path: '/v1/energy/price-cap/periods/current' },
    { route: 'energy.price-cap.periods.get', method: 'GET', path: '/v1/energy/price-cap/periods/2025-10' },
    { route: 'energy.price-cap.rates', method: 'GET', path: '/v1/energy/price-cap/rates?period=2025-10&fuel=gas' },
    { route: 'energy.price-cap.regions', method: 'GET', path: '/v1/energy/price-cap/regions' },
    { route: 'energy.price-cap.calculate', method: 'POST', path: '/v1/energy/price-cap/calculate', body: { electricity_kwh: 2700, gas_kwh: 11500, period: '2025-10' } },
  ],
  errors: [
    { route: 'energy.price-cap.periods.get', method: 'GET', path: '/v1/energy/price-cap/periods/2027-01' },
    { route: 'energy.price-cap.calculate', method: 'POST', path: '/v1/energy/price-cap/calculate', body: { electricity_kwh: -1 } },
  ],
  lake: {
    datasets: ['energy-price-cap'],
    build: async ({ mirror, src }) => {
      // a GENERATED format-true levels-model workbook (bench/lib/energy-workbook.mjs), as test/energy uses
      mkdirSync(src, { recursive: true });
      const wb = join(src, 'energy-price-cap-levels-pre-levelised-rates-model.xlsx');
      writeFileSync(wb, (generateLevelsWorkbook() as { buffer: Buffer }).buffer);
      await syncFrom('energy-price-cap', mirror, src, wb);
    },
    check: async (lake) => {
      // the generated model's 6 periods x 14 regions x 9 fuel/meter/payment combinations (nil and benchmark levels)
      expect((await lake.rows('energy-price-cap', 'periods')).length).toBe(6);
      expect((await lake.rows('energy-price-cap', 'rates')).length).toBe(6 * 14 * 9);
      expect((await lake.rows('energy-price-cap', 'levels')).length).toBe(6 * 14 * 9 * 2);
      await lake.expectSorted('energy-price-cap', 'rates', ['period_id', 'region_code', 'fuel', 'payment_method', 'meter']);
    },
  },
  wide: async ({ call, allPages }) => {
    const periods = await allPages('energy.price-cap.periods', '/v1/energy/price-cap/periods');
    for (const p of periods) await call('energy.price-cap.periods.get', `/v1/energy/price-cap/periods/${p.period_id}`);
    await call('energy.price-cap.calculate', '/v1/energy/price-cap/calculate', { gas_kwh: 11500 });
    expect(periods.length).toBeGreaterThan(10);
  },
};
