/**
 * The example domain's POST calculator (test-only; leaksserve's part of issue 33): `example.calculate`,
 * POST /v1/example/calculate, costed like every POST (10 credits) and batch-able (`example calculate
 * --batch`), so the shared tests of the live client, credits, serve's bodies and --batch take it as their
 * example instead of a real domain's calculator.
 *
 * The answer, from ITEMS (data.ts): of the items (of `colour` when given) whose `count` (id * 7) is at most
 * `amount`, how many there are and the sum of their counts. By hand: amount 30 -> ids 1..4, counts
 * 7+14+21+28 = 70; amount 30 with colour green (ids 1, 4, 7, ...) -> ids 1 and 4, 7+28 = 35.
 */
import { POST_COST } from '../../../src/contract/params.js';
import type { RouteSpec } from '../../../src/contract/route.js';
import { constant, int, nullable, obj, oneOf, str, type ResponseSchemas } from '../../../src/contract/schema.js';
import type { Handler } from '../../../src/contract/types.js';
import type { RouteCommandSpec } from '../../../src/domains/command-kit.js';
import { CAVEAT, ITEMS } from './data.js';

export const CALCULATE_PATH = '/v1/example/calculate';

export const calculateRoute: RouteSpec = {
  id: 'example.calculate',
  method: 'POST',
  path: CALCULATE_PATH,
  domain: 'example',
  summary: 'How many example items have a count at most amount, and their total count',
  body: [
    { name: 'amount', type: 'integer', required: true, min: 0, description: 'the largest count counted' },
    { name: 'colour', type: 'string', enum: ['red', 'green', 'blue'], caseInsensitive: true, description: 'only this colour' },
    { name: 'label', type: 'string', pattern: '[a-z]{1,12}', patternHint: '1 to 12 lower-case letters', description: 'echoed back (a pattern field)' },
  ],
  cost: POST_COST,
  errors: ['invalid_parameter'],
};

export const calculate: Handler = (req) => {
  const b = (req.body ?? {}) as { amount: number; colour?: string; label?: string };
  const chosen = ITEMS.filter((i) => i.count <= b.amount && (b.colour === undefined || i.colour === b.colour));
  return {
    data: { basis: 'calculate', amount: b.amount, colour: b.colour ?? null, label: b.label ?? null, item_count: chosen.length, total_count: chosen.reduce((n, i) => n + i.count, 0) },
    meta: { api_version: 'v1', caveat: CAVEAT },
  };
};

export const calculateResponses: ResponseSchemas = {
  'example.calculate': {
    data: obj({ basis: constant('calculate'), amount: int(), colour: nullable(oneOf(['red', 'green', 'blue'])), label: nullable(str()), item_count: int(), total_count: int() }),
    meta: ['caveat'],
    source: 'test/support/example-domain (test-only)',
  },
};

export const calculateCommand: RouteCommandSpec = {
  name: 'calculate',
  route: 'example.calculate',
  description: 'Count the items up to an amount (POST, 10 credits live)',
  args: [{ param: 'amount', optional: true, description: 'the largest count counted (30, 1,000, 1k)' }],
  flags: [
    { flags: '--colour <colour>', param: 'colour', description: 'red, green or blue', choices: ['red', 'green', 'blue'] },
    { flags: '--label <label>', param: 'label', description: '1 to 12 lower-case letters, echoed back' },
  ],
  batch: true,
  bodyFile: true,
  examples: ['publicdata example calculate 30', 'publicdata example calculate --batch < amounts.ndjson'],
};
