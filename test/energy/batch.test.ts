/**
 * `energy bill --batch` answers each line exactly as a single call of the route with the same body does
 * (`api POST … --data`; the friendly command's single call names options, not fields, in its errors):
 * the batch shares one frozen meta per state and serialises it once (src/batch-line.ts envelopeJson),
 * so its bytes are compared here with the single call's envelope written by JSON.stringify.
 */
import { describe, expect, it } from 'vitest';
import { envelopeJson } from '../../src/batch-line.js';
import type { Envelope } from '../../src/contract/types.js';
import { runCli } from '../support/cli.js';

const BODIES = [
  { electricity_kwh: 2700, gas_kwh: 11500, period: '2025-10' },
  { electricity_kwh: 4082.5, period: '2024-01' },
  { gas_kwh: 100, meter: 'multi_register' }, // notes: gas at the single-rate cap, and 'current' falling back (test clock 2026-11-21)
  { electricity_kwh: 3, date: '2025-11-01', payment_method: 'DIRECT_DEBIT' },
  { electricity_kwh: 1e-7, period: 'current' },
  { electricity_kwh: -1 },
  { period: '2025-10', date: '2025-11-01', gas_kwh: 1 },
  { electricity_kwh: 3, region: 'london' }, // not synced: 503 dataset_not_synced
  { gas_kwh: 5, period: '2018-01' }, // a period not loaded: 404
];

describe('energy bill --batch', () => {
  it('each line is the single call with that body, byte for byte', async () => {
    const batch = await runCli(['energy', 'bill', '--batch'], { stdin: BODIES.map((b) => JSON.stringify(b)).join('\n') });
    const lines = batch.stdout.split('\n');
    expect(lines.pop()).toBe(''); // one newline after each answer
    expect(lines).toHaveLength(BODIES.length);
    for (let i = 0; i < BODIES.length; i++) {
      const single = await runCli(['api', 'POST', '/v1/energy/price-cap/calculate', '--data', JSON.stringify(BODIES[i]), '--format', 'json']);
      // the single call's envelope as JSON.stringify writes it (its own output may be indented)
      expect(lines[i], `line ${i + 1}`).toBe(JSON.stringify(JSON.parse(single.stdout)));
    }
    // computed by hand: 2700 x 26.35 = 71145p, 365 x 53.68 = 19593.2 -> 19593p, 11500 x 6.29 = 72335p, 365 x 34.03 = 12420.95 -> 12421p
    expect(JSON.parse(lines[0]!).data.total_annual).toBe(1754.94);
    expect(JSON.parse(lines[5]!).error.code).toBe('invalid_parameter');
    expect(JSON.parse(lines[7]!).error.code).toBe('dataset_not_synced');
    expect(JSON.parse(lines[8]!).error.code).toBe('not_found');
  });
});

describe('envelopeJson', () => {
  const frozenMeta = Object.freeze({ api_version: 'v1', licence: 'OGL', rounding: Object.freeze({ a: 'half up' }), note: 'n"q' });
  it('writes what JSON.stringify writes, with a frozen meta and without', () => {
    const envs: unknown[] = [
      { data: { x: 1.5, s: 'é\u2028' }, meta: frozenMeta },
      { data: [1, 2], meta: frozenMeta, pagination: { total: 2 } },
      { meta: frozenMeta, data: { x: 1 } },
      { data: { x: 1 }, meta: Object.freeze({ api_version: 'v1', rounding: { a: 'b' } }) }, // nested object not frozen
      { data: { x: 1 }, meta: { api_version: 'v1' } },
      { error: { code: 'bad_request', message: 'm' } },
    ];
    for (const e of envs) expect(envelopeJson(e as Envelope)).toBe(JSON.stringify(e));
  });
  it('a meta not frozen through is written afresh each time (a later change shows)', () => {
    const nested = { a: 'b' };
    const m = Object.freeze({ api_version: 'v1', rounding: nested });
    expect(envelopeJson({ data: { x: 1 }, meta: m } as unknown as Envelope)).toContain('"a":"b"');
    nested.a = 'c';
    expect(envelopeJson({ data: { x: 1 }, meta: m } as unknown as Envelope)).toContain('"a":"c"');
  });
});
