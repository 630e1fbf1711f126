/**
 * The tax commands' own zero-request cases (moved from test/cli/zero-requests.test.ts): a bad nested
 * scenario, a bad VAT-return document and a --sweep's credit budget or bad flag are refused before any
 * request, alike under --source live and local.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, json, runCli } from '../support/cli.js';
import { FakeLive } from '../support/fake-live.js';
import { startApiServer } from '../support/api-server.js';
import { fakeKey } from '../support/keys.js';

const KEY = fakeKey('test', 'zeroreq0000000000000000000000000');

describe('the cases the review found, under --source live', () => {
  const env = () => isolatedEnv({ PUBLICDATA_API_KEY: KEY });

  it('compare: a bad nested scenario field is rejected before any request, naming the nested field', async () => {
    const fake = new FakeLive();
    const dir = mkdtempSync(join(tmpdir(), 'pd-zero-'));
    const file = join(dir, 'scenarios.json');
    writeFileSync(file, JSON.stringify({ scenario_a: { gross_income: 'x' }, scenario_b: { gross_income: 50000 } }));
    const live = await runCli(['tax', 'compare', '--body', file, '--source', 'live'], { env: env(), liveBackend: fake.factory });
    const local = await runCli(['tax', 'compare', '--body', file, '--source', 'local'], { env: env() });
    expect(fake.requests).toEqual([]);
    expect(json(live)).toEqual(json(local));
    expect(json(live).error).toMatchObject({ code: 'bad_request', message: "Invalid field 'scenario_a.gross_income': must be an integer." });
    expect(live.code).toBe(2);
  });

  it('vat-return: a structurally bad body is VALIDATION_ERROR with details before any request', async () => {
    const fake = new FakeLive();
    const dir = mkdtempSync(join(tmpdir(), 'pd-zero-'));
    const file = join(dir, 'return.json');
    writeFileSync(file, '{"transactions":"nope"}');
    const live = await runCli(['tax', 'vat-return', '--body', file, '--source', 'live'], { env: env(), liveBackend: fake.factory });
    const local = await runCli(['tax', 'vat-return', '--body', file, '--source', 'local'], { env: env() });
    expect(fake.requests).toEqual([]);
    expect(json(live)).toEqual(json(local));
    expect(json(live).error.code).toBe('VALIDATION_ERROR');
    expect(json(live).error.details.map((d: { field: string }) => d.field)).toContain('transactions');
  });

  it('--sweep checks --max-credits for every row before the first request (5 rows x 10 credits > 30), with the real live client', async () => {
    const server = await startApiServer({ keys: [KEY] });
    try {
      const e = isolatedEnv({ PUBLICDATA_API_KEY: KEY, PUBLICDATA_BASE_URL: server.url });
      const r = await runCli(['tax', 'take-home', '--sweep', '20000:40000:5000', '--source', 'live', '--max-credits', '30', '--format', 'json'], { env: e });
      expect(server.requests).toEqual([]);
      expect(json(r).error.code).toBe('credit_budget_exceeded');
      expect(json(r).error.message).toContain('5 calls');
      expect(r.code).not.toBe(0);
      // a budget that covers every row lets the sweep run: 3 rows, 30 credits
      const ok = await runCli(['tax', 'take-home', '--sweep', '20000:30000:5000', '--source', 'live', '--max-credits', '30', '--format', 'ndjson'], { env: e });
      expect(ok.code).toBe(0);
      expect(server.requests).toHaveLength(3);
      expect(ok.stdout.trim().split('\n')).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it('--sweep honours --source live: one request per row, and a bad flag sends nothing', async () => {
    const fake = new FakeLive();
    for (let i = 0; i < 3; i++) {
      fake.register('POST', '/v1/tax/take-home/calculate', (c) => ({
        status: 200,
        envelope: { data: { gross_income: (c.body as { gross_income: number }).gross_income, source: 'fake' }, meta: { api_version: 'v1' } },
        source: 'live',
      }));
    }
    const r = await runCli(['tax', 'take-home', '--sweep', '20000:30000:5000', '--source', 'live', '--format', 'ndjson'], { env: env(), liveBackend: fake.factory });
    fake.verify();
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l))).toEqual([20000, 25000, 30000].map((g) => ({ gross_income: g, source: 'fake' })));

    const none = new FakeLive();
    const bad = await runCli(['tax', 'take-home', '--sweep', '20000:30000:5000', '--region', 'mars', '--source', 'live', '--format', 'json'], { env: env(), liveBackend: none.factory });
    expect(none.requests).toEqual([]);
    expect([bad.code, json(bad).error.code]).toEqual([2, 'invalid_region']);
  });
});
