/**
 * The energy domain's conformance samples (test/server/conformance.test.ts, via test/support/route-samples.ts):
 * one valid call per route, some error calls, and how the fixture mirror gets its data: shipped data (the synced workbook is optional).
 */
import type { DomainSamples } from '../support/samples-types.js';

export const samples: DomainSamples = {
  routes: [
    { route: 'energy.price-cap.periods', method: 'GET', path: '/v1/energy/price-cap/periods?per_page=5' },
    { route: 'energy.price-cap.periods.current', method: 'GET', path: '/v1/energy/price-cap/periods/current' },
    { route: 'energy.price-cap.periods.get', method: 'GET', path: '/v1/energy/price-cap/periods/2025-10' },
    { route: 'energy.price-cap.rates', method: 'GET', path: '/v1/energy/price-cap/rates?period=2025-10&fuel=gas' },
    { route: 'energy.price-cap.regions', method: 'GET', path: '/v1/energy/price-cap/regions' },
    { route: 'energy.price-cap.calculate', method: 'POST', path: '/v1/energy/price-cap/calculate', body: { electricity_kwh: 2700, gas_kwh: 11500, period: '2025-10' } },
  ],
  errors: [
    { route: 'energy.price-cap.periods.get', method: 'GET', path: '/v1/energy/price-cap/periods/2023-01' },
    { route: 'energy.price-cap.calculate', method: 'POST', path: '/v1/energy/price-cap/calculate', body: { electricity_kwh: -1 } },
  ],
};
