/**
 * A live `--batch` that runs out of credits stops sending: the lines before are answered and written, the
 * line that met `insufficient_credits` gets its envelope, and no later line reaches the server (before,
 * every remaining line was sent and refused). Each answer is written as it comes (a later interrupt or a
 * reader that went away loses none already paid for).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, TEST_KEY, type ApiServer } from '../support/api-server.js';
import { isolatedEnv, runCli } from '../support/cli.js';

let server: ApiServer;
beforeAll(async () => {
  server = await startApiServer({ credits: 25 }); // a POST costs 10 here: two lines' worth
});
afterAll(async () => {
  await server.close();
});

// example calculate (test/support/example-domain/calculate.ts): a POST, 10 credits; each answer echoes its amount
const LINES = [30000, 40000, 50000, 60000, 70000, 80000, 90000].map((g) => JSON.stringify({ amount: g })).join('\n');

describe('live --batch out of credits', () => {
  it.each([402, 429] as const)('insufficient_credits as %i: two answers, the third refused, nothing more sent, exit 3', async (status) => {
    const s = await startApiServer({ credits: 25, insufficientStatus: status });
    try {
      const env = isolatedEnv({ PUBLICDATA_BASE_URL: s.url, PUBLICDATA_API_KEY: TEST_KEY });
      const r = await runCli(['example', 'calculate', '--batch', '--source', 'live', '--format', 'ndjson'], { env, stdin: `${LINES}\n` });
      expect(r.code).toBe(3);
      const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
      expect(out.map((e) => (e.error ? e.error.code : e.data.amount))).toEqual([30000, 40000, 'insufficient_credits']);
      expect(s.requests.filter((q) => q.method === 'POST')).toHaveLength(3);
      expect(r.stderr).toContain('out of credits at input line 3; the lines after it were not sent');
    } finally {
      await s.close();
    }
  });

  it('with credits enough, every line is answered in order (exit 0)', async () => {
    server.setCredits(1000);
    const env = isolatedEnv({ PUBLICDATA_BASE_URL: server.url, PUBLICDATA_API_KEY: TEST_KEY });
    const r = await runCli(['example', 'calculate', '--batch', '--source', 'live', '--format', 'ndjson'], { env, stdin: `${LINES}\n` });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).data.amount)).toEqual([30000, 40000, 50000, 60000, 70000, 80000, 90000]);
  });
});
