import type { HandlerContext } from '../../../src/contract/types.js';
import { handlerCtx } from '../../support/handler-context.js';
import { postRoute } from '../../support/route.js';

export const ctx: HandlerContext = handlerCtx(undefined, { cacheDir: '/tmp' });

export async function vatReturn(body: unknown, detail: 'full' | 'summary' | 'none' = 'full') {
  return postRoute('/v1/tax/vat/return/calculate', body, ctx, { breakdown_detail: detail });
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
