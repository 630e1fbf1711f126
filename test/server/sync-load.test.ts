/**
 * `publicdata serve` under load: autocannon on loopback, bounded by request count: 0 errors, and the credit
 * balance is exactly the start minus the sum of the costs (GET 1, POST 10) of the requests sent
 * concurrently. On the example domain (GET example.summary, POST example.calculate). The sync-beside-a-
 * running-server case is test/property/serve-sync-swap.test.ts.
 */
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { keyLine, startTestServer, type TestServer } from '../support/serve.js';
import { fakeKey } from '../support/keys.js';

const KEY = fakeKey('live', '5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e');
const servers: TestServer[] = [];

afterAll(async () => {
  for (const s of servers) await s.close();
});

describe('load (autocannon, loopback)', () => {
  it('0 errors under concurrency, and the credit balance is exact: start − Σ cost', async () => {
    const start = 50_000;
    const s = await startTestServer({ keysText: keyLine(KEY, { per_minute: 1_000_000, monthly_credits: 0, credits: start }) });
    servers.push(s);
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    const gets = 600;
    const posts = 150;
    const [g, p] = await Promise.all([
      autocannon({ url: `${s.url}/example/summary`, connections: 10, amount: gets, headers, timeout: 20 }),
      autocannon({
        url: `${s.url}/example/calculate`,
        method: 'POST',
        body: JSON.stringify({ amount: 45000 }),
        connections: 5,
        amount: posts,
        headers,
        timeout: 20,
      }),
    ]);
    for (const r of [g, p]) {
      expect([r.errors, r.timeouts, r.non2xx]).toEqual([0, 0, 0]);
    }
    expect([g['2xx'], p['2xx']]).toEqual([gets, posts]);
    const last = await fetch(`${s.url}/example/summary`, { method: 'HEAD', headers });
    expect(Number(last.headers.get('x-credits-remaining'))).toBe(start - (gets * 1 + posts * 10) - 1);
    await s.close();
    const state = JSON.parse(readFileSync(s.stateFile, 'utf8'));
    expect(Object.values(state.keys)).toEqual([{ month: '2026-11', monthly_used: 0, purchased_used: gets + posts * 10 + 1 }]);
  }, 60_000);
});
