/**
 * /v1/energy routes (spec doc 4, "Energy price cap"). Pure specs: every bad value (negative or
 * non-numeric kWh, neither fuel, unknown region / payment method / meter / fuel, a malformed period or
 * date) is rejected here, before any data is read. Period and date lookups that need the data (unknown
 * period 404, a date before the first cap period 400) are the handlers' (src/domains/energy/handlers.ts).
 */
import type { ParamSpec, RouteSpec } from '../../contract/route.js';
import { GET_COST, paging, POST_COST } from '../../contract/params.js';

/** The 14 GB electricity regions of Ofgem's levels model, then the GB average (data/energy/price-cap.yaml). */
export const ENERGY_REGION_CODES = [
  'north_west',
  'northern',
  'yorkshire',
  'north_scotland',
  'southern',
  'south_scotland',
  'north_wales_mersey',
  'london',
  'south_east',
  'eastern',
  'east_midlands',
  'midlands',
  'south_western',
  'south_wales',
  'gb_average',
] as const;
export const FUELS = ['electricity', 'gas'] as const;
export const PAYMENT_METHODS = ['direct_debit', 'standard_credit', 'prepayment'] as const;
export const METERS = ['single_rate', 'multi_register'] as const;

/** A cap period id: the first month, `YYYY-MM` (or `current` where allowed). */
export const PERIOD_PATTERN = '\\d{4}-(?:0[1-9]|1[0-2])';
/** `current` in any case (`CURRENT`, `Current`), as every enumerated choice of the tool is read; written out
 *  because a route pattern is case-sensitive (src/contract/route.ts) and is published as such in OpenAPI. */
export const CURRENT_PATTERN = '[Cc][Uu][Rr][Rr][Ee][Nn][Tt]';
/** The largest consumption accepted per fuel, kWh a year (keeps every product exact; ~500x a typical home). */
export const MAX_KWH = 10_000_000;

const periodOrCurrent = (where: 'query' | 'body'): ParamSpec => ({
  name: 'period',
  type: 'string',
  pattern: `${PERIOD_PATTERN}|${CURRENT_PATTERN}`,
  patternHint: "a cap period's first month YYYY-MM (e.g. 2025-10) or current (any case)",
  error: 'invalid_parameter',
  excludes: ['date'],
  description: `cap period YYYY-MM (its first month) or current${where === 'query' ? ' (default current)' : ''}; not with date`,
});
const date: ParamSpec = {
  name: 'date',
  type: 'date',
  error: 'invalid_parameter',
  excludes: ['period'],
  description: 'the period in force on this day (YYYY-MM-DD); not with period',
};
const region = (dflt?: string): ParamSpec => ({
  name: 'region',
  type: 'string',
  enum: ENERGY_REGION_CODES,
  caseInsensitive: true,
  error: 'invalid_parameter',
  vocabulary: 'region',
  ...(dflt ? { default: dflt } : {}),
  description: `GB electricity region code (see /v1/energy/price-cap/regions) or gb_average${dflt ? ` (default ${dflt})` : ''}; also its name (North West, N Wales and Mersey), in any case, or Great Britain (K03000001) for gb_average`,
});
const payment = (dflt?: string): ParamSpec => ({
  name: 'payment_method',
  type: 'string',
  enum: PAYMENT_METHODS,
  caseInsensitive: true,
  error: 'invalid_parameter',
  ...(dflt ? { default: dflt } : {}),
  description: `direct_debit, standard_credit or prepayment${dflt ? ` (default ${dflt})` : ''}`,
});
const meter = (dflt?: string): ParamSpec => ({
  name: 'meter',
  type: 'string',
  enum: METERS,
  caseInsensitive: true,
  error: 'invalid_parameter',
  ...(dflt ? { default: dflt } : {}),
  description: `single_rate or multi_register (Economy 7; electricity only)${dflt ? ` (default ${dflt})` : ''}`,
});
const kwh = (fuel: string): ParamSpec => ({
  name: `${fuel}_kwh`,
  type: 'number',
  min: 0,
  max: MAX_KWH,
  error: 'invalid_parameter',
  description: `annual ${fuel} consumption, kWh (number >= 0)`,
});

export const energyRoutes: RouteSpec[] = [
  {
    id: 'energy.price-cap.periods',
    method: 'GET',
    path: '/v1/energy/price-cap/periods',
    domain: 'energy',
    summary: 'Energy price cap periods with typical consumption and typical bills, newest first',
    query: paging,
    cost: GET_COST,
    pagination: 'top',
    // the typical bill a period is known by (Direct Debit: the one Ofgem headlines)
    measures: ['typical_annual_bill.direct_debit'],
    errors: ['invalid_parameter'],
  },
  {
    id: 'energy.price-cap.periods.current',
    method: 'GET',
    path: '/v1/energy/price-cap/periods/current',
    domain: 'energy',
    summary: 'The cap period in force today (UK date); the newest loaded one, with meta.note, when none covers today',
    cost: GET_COST,
    errors: ['not_found'],
  },
  {
    id: 'energy.price-cap.periods.get',
    method: 'GET',
    path: '/v1/energy/price-cap/periods/{period_id}',
    domain: 'energy',
    summary: 'One cap period by its first month (YYYY-MM)',
    pathParams: [
      {
        name: 'period_id',
        type: 'string',
        pattern: PERIOD_PATTERN,
        patternHint: "a cap period's first month YYYY-MM (e.g. 2025-10)",
        error: 'invalid_parameter',
        description: 'YYYY-MM, the first month of the period',
      },
    ],
    cost: GET_COST,
    errors: ['invalid_parameter', 'not_found'],
  },
  {
    id: 'energy.price-cap.rates',
    measures: ['fuel', 'payment_method', 'meter', 'unit_rate', 'standing_charge'],
    method: 'GET',
    path: '/v1/energy/price-cap/rates',
    domain: 'energy',
    summary: 'Unit rates and standing charges by region, fuel, payment method and meter (GB average until synced)',
    query: [periodOrCurrent('query'), date, region(), { name: 'fuel', type: 'string', enum: FUELS, caseInsensitive: true, error: 'invalid_parameter', description: 'electricity or gas' }, payment(), meter()],
    cost: GET_COST,
    errors: ['invalid_parameter', 'not_found'],
  },
  {
    id: 'energy.price-cap.regions',
    method: 'GET',
    path: '/v1/energy/price-cap/regions',
    domain: 'energy',
    summary: 'The 14 GB electricity regions of the price cap, and the GB average',
    cost: GET_COST,
    errors: [],
  },
  {
    id: 'energy.price-cap.calculate',
    method: 'POST',
    path: '/v1/energy/price-cap/calculate',
    domain: 'energy',
    summary: 'Annual bill under the cap for given consumption, region, payment method and meter (exact in pence)',
    body: [kwh('electricity'), kwh('gas'), region('gb_average'), payment('direct_debit'), meter('single_rate'), periodOrCurrent('body'), date],
    requireOneOf: ['electricity_kwh', 'gas_kwh'],
    cost: POST_COST,
    errors: ['invalid_parameter', 'not_found', 'dataset_not_synced'],
  },
];
