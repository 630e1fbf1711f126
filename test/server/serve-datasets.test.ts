/**
 * `publicdata serve` on routes that read mirror datasets (split from serve.test.ts, issue 33): 503
 * dataset_not_synced on an empty mirror, the per-dataset queue under a bounded shutdown, and no answer
 * cache for them. Registry-driven: the route is the first registered GET that reads a required dataset and
 * takes no input but paging (with every real domain removed: the example domain's synced-dataset route,
 * example.records, from the example dataset of issue 33); different pages are different calls (no
 * coalescing). The mirror is empty, so each answer is the local 503, computed independently by callLocal.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { callLocal } from '../../src/backends/local.js';
import { ROUTES } from '../../src/registry.js';
import type { CallResult } from '../../src/contract/types.js';
import { DEFAULT_DATASET_CONCURRENCY } from '../../src/server/server.js';
import { handlerCtx } from '../support/handler-context.js';
import { startTestServer, useTestServers, type TestServer } from '../support/serve.js';
import { http } from '../support/serve-http.js';

/** The first registered GET that needs a synced dataset, with no path parameter and no required input, and paged. */
const DATASET_ROUTE = ROUTES.find((r) => r.local?.datasets?.length && r.method === 'GET' && !r.path.includes('{') && !(r.query ?? []).some((q) => q.required) && !r.requireOneOf && !r.exactlyOneOf && (r.query ?? []).some((q) => q.name === 'page'));
/** Every registered GET that reads a dataset only when it is synced (none may be registered). */
const OPTIONAL_ROUTES = ROUTES.filter((r) => !r.local?.datasets?.length && r.local?.optionalDatasets?.length && r.method === 'GET' && !r.path.includes('{') && !(r.query ?? []).some((q) => q.required));

const serve = useTestServers();

const path = () => {
  expect(DATASET_ROUTE, 'a registered GET route that needs a synced dataset and is paged').toBeDefined();
  return DATASET_ROUTE!.path;
};

describe('a route that reads a mirror dataset', () => {
  it('503 dataset_not_synced when not synced: the local envelope', async () => {
    const s = await serve();
    const ns = await http(s, 'GET', path());
    const want = await callLocal({ method: 'GET', path: path(), query: {} }, handlerCtx());
    expect([ns.status, ns.text]).toEqual([503, JSON.stringify(want.envelope)]);
    expect(ns.json.error.code).toBe('dataset_not_synced');
  });

  it('answers of routes that read the mirror, even optionally, are not cached', async () => {
    let runs = 0;
    const s = await serve({
      wrap: (_call, run) => {
        runs++;
        return run();
      },
    });
    const paths = [path(), `${path()}?page=2`, ...OPTIONAL_ROUTES.map((r) => r.path)];
    for (const p of paths) for (let i = 0; i < 2; i++) await http(s, 'GET', p);
    expect(runs).toBe(paths.length * 2);
  });
});

describe('bounded shutdown', () => {
  /** Mirror queries that wait for the test to let them run, and the pages they were started for. */
  function heldQueries() {
    const started: string[] = [];
    const releases: Array<() => void> = [];
    const wrap = async (call: { query: Record<string, unknown> }, run: () => Promise<CallResult>) => {
      started.push(String(call.query.page));
      await new Promise<void>((r) => releases.push(r));
      return run();
    };
    return { started, releases, wrap };
  }
  const until = async (cond: () => boolean) => {
    while (!cond()) await new Promise((r) => setImmediate(r));
  };
  function query(s: TestServer, i: number) {
    const req = request(`${s.url.replace(/\/v1$/, '')}${path()}?page=${i + 1}`, { agent: false });
    const done = new Promise<string>((resolve) => {
      req.on('response', (res) => resolve(String(res.statusCode)));
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    });
    req.end();
    return { req, done };
  }

  it('work queued for clients that disconnected is dropped, never run', async () => {
    const h = heldQueries();
    const s = await serve({ wrap: h.wrap });
    // Ten different queries on one dataset (no coalescing); two run, eight wait their turn.
    const clients = Array.from({ length: 10 }, (_, i) => query(s, i));
    await until(() => s.inflight() === 10);
    expect(h.started.length).toBe(DEFAULT_DATASET_CONCURRENCY);
    for (const c of clients) c.req.destroy();
    await until(() => s.inflight() === 0);
    for (const release of h.releases.splice(0)) release();
    await until(() => s.executing() === 0);
    // The two that were running finished; none of the eight queued ones ever started.
    expect(h.started).toEqual(['1', '2']);
  });

  it('at the deadline the connections still open are closed, their queued work dropped, and close returns', async () => {
    const h = heldQueries();
    const s = await startTestServer({ wrap: h.wrap });
    const clients = Array.from({ length: 3 }, (_, i) => query(s, i));
    await until(() => s.inflight() === 3);
    await s.close(0); // the two running never finish: the deadline closes every connection
    expect(await Promise.all(clients.map((c) => c.done))).toEqual(['ECONNRESET', 'ECONNRESET', 'ECONNRESET']);
    expect(s.inflight()).toBe(0);
    for (const release of h.releases.splice(0)) release();
    await until(() => s.executing() === 0);
    expect(h.started).toEqual(['1', '2']);
  });
});
