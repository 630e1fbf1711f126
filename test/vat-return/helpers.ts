import { callLocal } from '../../src/backends/local.js';
import type { HandlerContext } from '../../src/contract/types.js';
import { FIXED_NOW } from '../support/cli.js';

export const ctx: HandlerContext = {
  now: () => FIXED_NOW,
  env: {},
  mirrorDir: '/nonexistent',
  cacheDir: '/tmp',
};

export async function vatReturn(body: unknown, detail: 'full' | 'summary' | 'none' = 'full') {
  return callLocal({ method: 'POST', path: '/v1/tax/vat/return/calculate', query: { breakdown_detail: detail }, body }, ctx);
}

export const Q3_2026 = { start_date: '2026-07-01', end_date: '2026-09-30' };

let n = 0;
/** A transaction with defaults: a standard-rated domestic sale. */
export function tx(over: Record<string, unknown> = {}): Record<string, unknown> {
  n++;
  return {
    id: `T${n}`,
    date: '2026-08-01',
    type: 'sale',
    net_amount: 100,
    vat_amount: 20,
    gross_amount: 120,
    vat_rate: 'standard',
    vat_rate_percentage: 20,
    supply_type: 'domestic',
    is_capital_asset: false,
    ...over,
  };
}

export function standardCompany(extra: Record<string, unknown> = {}) {
  return {
    vat_registration_number: 'GB123456789',
    vat_schemes: [{ scheme: 'standard', effective_from: '2020-01-01', effective_to: null }],
    partially_exempt: false,
    ...extra,
  };
}
