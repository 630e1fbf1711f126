/**
 * `publicdata serve` beside a sync, and under load:
 * - a sync that swaps a dataset file while the server runs: every answer during the sync is the old
 *   data or the new, never an error or a mix; after the swap the server answers from the new file
 *   (src/mirror/db.ts reopens a replaced file) without a restart, with a new ETag;
 * - autocannon on loopback, bounded by request count: 0 errors, and the credit balance is exactly the
 *   start minus the sum of the costs (GET 1, POST 10) of the requests sent concurrently.
 */
import autocannon from 'autocannon';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRoute } from '../support/route.js';
import { closeAll } from '../../src/mirror/db.js';
import { fixturesOf, buildDataset, ctxFor, tempDir } from '../support/mirror-helper.js';
import { keyLine, startTestServer, type TestServer } from '../support/serve.js';
import { fakeKey } from '../support/keys.js';

const FIXTURES = fixturesOf('property');

const KEY = fakeKey('live', '5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e');
const SAMPLE = join(FIXTURES, 'uk-hpi', 'UK-HPI-full-file-sample.csv');
let dir: string;
const servers: TestServer[] = [];

beforeAll(async () => {
  dir = tempDir('pd-serve-sync-');
  await buildDataset('hpi', SAMPLE, join(dir, 'mirror'));
}, 60_000);
afterAll(async () => {
  for (const s of servers) await s.close();
  await closeAll();
  rmSync(dir, { recursive: true, force: true });
});

async function get(s: TestServer, path: string): Promise<{ status: number; text: string; etag: string | null }> {
  const r = await fetch(s.url.replace(/\/v1$/, '') + path, { headers: { authorization: `Bearer ${KEY}` } });
  return { status: r.status, text: await r.text(), etag: r.headers.get('etag') };
}

describe('sync beside a running server', () => {
  it('answers from the new file after the swap, old-or-new during it, never an error', async () => {
    const mirror = join(dir, 'mirror');
    const s = await startTestServer({ mirrorDir: mirror, keysText: keyLine(KEY, { per_minute: 100_000, credits: 100_000 }) });
    servers.push(s);
    const path = '/v1/property/hpi/regions';
    const before = await get(s, path);
    const oldText = JSON.stringify((await getRoute(path, {}, ctxFor(mirror))).envelope);
    expect([before.status, before.text]).toEqual([200, oldText]);
    expect(before.text).toContain('Wokingham');

    // The publisher's next file: the same format, without Wokingham.
    const next = join(dir, 'UK-HPI-next.csv');
    const lines = readFileSync(SAMPLE, 'utf8').split('\n');
    writeFileSync(next, lines.filter((l, i) => i === 0 || l.split(',')[1] !== 'Wokingham').join('\n'));

    const during: Array<{ status: number; text: string }> = [];
    let syncing = true;
    const sync = buildDataset('hpi', next, mirror).finally(() => (syncing = false));
    while (syncing) during.push(await get(s, path));
    await sync;

    const after = await get(s, path);
    const newText = JSON.stringify((await getRoute(path, {}, ctxFor(mirror))).envelope);
    expect(newText).not.toContain('Wokingham');
    expect([after.status, after.text]).toEqual([200, newText]);
    expect(after.etag).not.toBe(before.etag);
    expect(during.length).toBeGreaterThan(0);
    for (const d of during) {
      expect(d.status).toBe(200);
      expect([oldText, newText]).toContain(d.text);
    }
  }, 60_000);
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
      autocannon({ url: `${s.url}/tax/years`, connections: 10, amount: gets, headers, timeout: 20 }),
      autocannon({
        url: `${s.url}/tax/take-home/calculate`,
        method: 'POST',
        body: JSON.stringify({ gross_income: 45000 }),
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
    const last = await fetch(`${s.url}/tax/years`, { method: 'HEAD', headers });
    expect(Number(last.headers.get('x-credits-remaining'))).toBe(start - (gets * 1 + posts * 10) - 1);
    await s.close();
    const state = JSON.parse(readFileSync(s.stateFile, 'utf8'));
    expect(Object.values(state.keys)).toEqual([{ month: '2026-11', monthly_used: 0, purchased_used: gets + posts * 10 + 1 }]);
  }, 60_000);
});
