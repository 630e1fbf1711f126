/**
 * Moved from test/server/sync-load.test.ts (issue 33), where the load case stays on the example domain:
 * `publicdata serve` beside a sync of the property domain's HPI dataset that swaps the dataset file while the
 * server runs: every answer during the sync is the old data or the new, never an error or a mix; after the
 * swap the server answers from the new file (src/mirror/db.ts reopens a replaced file) without a restart,
 * with a new ETag. (Serve machinery on a real dataset until the example domain has a synced dataset of its
 * own: then it can go back to test/server/ on that.)
 */
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
