/**
 * Moved from test/server/serve.test.ts (issue 33): serve's per-dataset queue on the companies domain's own
 * declaration: the PSC route reads `psc` and, when synced, `companies` (optionalDatasets), so it queues
 * behind register queries for a `companies` slot, and that changes nothing in its answer.
 */
import { describe, expect, it } from 'vitest';
import { callLocal } from '../../src/backends/local.js';
import { handlerCtx } from '../support/handler-context.js';
import { useTestServers } from '../support/serve.js';
import { http } from '../support/serve-http.js';

const local = (path: string) => callLocal({ method: 'GET', path, query: {} }, handlerCtx());

const serve = useTestServers();

describe('per-dataset queue', () => {
  it('a PSC route queues on the companies dataset it also reads, behind register queries', async () => {
    const started: string[] = [];
    const releases: Array<() => void> = [];
    const s = await serve({
      wrap: async (call, run) => {
        started.push(call.path);
        await new Promise<void>((r) => releases.push(r));
        return run();
      },
    });
    const get = (path: string) => http(s, 'GET', path);
    // Two register searches take both slots of `companies`.
    const a = get('/v1/companies/search?q=alpha');
    const b = get('/v1/companies/search?q=beta');
    while (started.length < 2) await new Promise((r) => setImmediate(r));
    // The PSC route reads `psc` and (when synced) `companies`: it waits for a companies slot.
    const p = get('/v1/companies/00000001/psc');
    while (s.inflight() < 3) await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['/v1/companies/search', '/v1/companies/search']);
    releases.shift()!();
    while (started.length < 3) await new Promise((r) => setImmediate(r));
    expect(started[2]).toBe('/v1/companies/00000001/psc');
    for (const r of releases.splice(0)) r();
    // Declaring `companies` as optional changes nothing in the answers: still dataset_not_synced for psc.
    const answers = await Promise.all([a, b, p]);
    const direct = await local('/v1/companies/00000001/psc');
    expect([answers[2].status, answers[2].json?.error?.code]).toEqual([direct.status, (direct.envelope as any).error?.code]);
  });
});
