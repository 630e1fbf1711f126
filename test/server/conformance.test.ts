/**
 * Conformance: every route with a local handler, called through `publicdata serve` by the project's own
 * live client (`api METHOD PATH --source live`, PUBLICDATA_BASE_URL pointing at the server), prints the
 * same bytes and exits with the same code as `--source local`, on a mirror synced from the fixtures.
 * The live client paces itself on serve's own rate limit (10 a minute) with no 429: the server's and
 * the client's clocks are one fake clock, so the waits for the next window take no time.
 *
 * Registry-driven: the routes are whatever is registered (the real domains' samples from test/<d>/samples.ts,
 * the test-only example domain's from test/support/example-domain/samples.ts), so with every real domain
 * removed (`npm run check:domains`) the example routes are still served and compared.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveBackend, type LiveBackend } from '../../src/backends/live.js';
import { ROUTES, recordSchemaFor, routeById } from '../../src/registry.js';
import { PRODUCTION_DOMAINS as DOMAINS, PRODUCTION_ROUTES } from '../support/production.js';
import { samples as exampleSamples } from '../support/example-domain/samples.js';
import { isErrorEnvelope } from '../../src/contract/types.js';
import { closeAll } from '../../src/mirror/db.js';
import { probeDatasetAccess } from '../../src/mirror/paths.js';
import { callLocal } from '../../src/backends/local.js';
import { handlerCtx } from '../support/handler-context.js';
import { runCli } from '../support/cli.js';
import { DOMAIN_SAMPLES, ERROR_SAMPLES as DOMAIN_ERROR_SAMPLES, FIXTURE_DATASETS, ROUTE_SAMPLES as DOMAIN_ROUTE_SAMPLES, buildFixtureMirror, type Sample } from '../support/route-samples.js';
import { FakeClock, keyLine, startTestServer, type TestServer } from '../support/serve.js';
import { fakeKey } from '../support/keys.js';
import { answerValidator } from '../support/openapi-validate.js';
import { csvColumns, flatten, recordsOf } from '../../src/output/records.js';

/** Every registered route's samples: the real domains' and the example domain's. */
const ROUTE_SAMPLES: readonly Sample[] = [...exampleSamples.routes, ...DOMAIN_ROUTE_SAMPLES];
const ERROR_SAMPLES: readonly Sample[] = [...(exampleSamples.errors ?? []), ...DOMAIN_ERROR_SAMPLES];
/** Routes that read no mirror file: at least the example domain's five, and more than 30 when the real domains are registered. */
const MIN_PURE = PRODUCTION_ROUTES.length ? 30 : 4;

const KEY = fakeKey('live', 'c0ffee00c0ffee00c0ffee00c0ffee01');
let dataDir: string;
let mirrorDir: string;
let server: TestServer;
let live: LiveBackend;
const clock = new FakeClock();

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'pd-conformance-'));
  mirrorDir = await buildFixtureMirror(dataDir);
  await exampleSamples.build?.({ dataDir, mirror: mirrorDir, cacheDir: join(dataDir, 'sync-cache') });
  server = await startTestServer({ mirrorDir, clock, keysText: keyLine(KEY, { per_minute: 10, credits: 100_000 }) });
}, 120_000);
afterAll(async () => {
  await live?.close();
  await server.close();
  await closeAll();
  rmSync(dataDir, { recursive: true, force: true });
});

function env(): Record<string, string> {
  return {
    PUBLICDATA_DATA_DIR: dataDir,
    PUBLICDATA_CONFIG_DIR: join(dataDir, 'config'),
    PUBLICDATA_BASE_URL: server.url,
    PUBLICDATA_API_KEY: KEY,
  };
}

async function both(s: Sample) {
  const args = ['api', s.method, s.path, ...(s.body !== undefined ? ['--data', JSON.stringify(s.body)] : [])];
  const local = await runCli([...args, '--source', 'local'], { env: env() });
  // One live backend for the whole run, as a long job would have: its pacing state carries over.
  const viaServe = await runCli([...args, '--source', 'live'], {
    env: env(),
    liveBackend: async (o) => (live ??= createLiveBackend({ ...o, env: {}, now: clock.now, sleep: clock.sleep })),
  });
  return { local, viaServe };
}

describe('serve conformance', () => {
  it('has a sample for every route with a local handler, and the fixture mirror holds every dataset they read', () => {
    const want = ROUTES.filter((r) => r.local).map((r) => r.id);
    expect([...new Set(ROUTE_SAMPLES.map((s) => s.route))].sort()).toEqual([...want].sort());
    // one sample per real route (the example domain's file has more: enough calls to pass serve's window)
    expect(DOMAIN_ROUTE_SAMPLES.map((s) => s.route).sort()).toEqual(PRODUCTION_ROUTES.filter((r) => r.local).map((r) => r.id).sort());
    const read = new Set(ROUTES.flatMap((r) => (r.local?.datasets ?? []).map((d) => d.name)));
    expect([...read].filter((d) => !FIXTURE_DATASETS.includes(d) && !(exampleSamples.datasets ?? []).includes(d))).toEqual([]);
    expect(want.filter((id) => !(ROUTES.find((r) => r.id === id)!.local!.datasets ?? []).length).length).toBeGreaterThan(MIN_PURE);
  });

  it("each domain's samples live beside its tests (test/<domain>/samples.ts) and call only its own routes", () => {
    expect([...DOMAIN_SAMPLES.keys()]).toEqual(DOMAINS.map((d) => d.name).sort());
    for (const [folder, s] of DOMAIN_SAMPLES) {
      for (const x of [...s.routes, ...(s.errors ?? [])]) expect([folder, x.route, routeById(x.route).domain]).toEqual([folder, x.route, folder]);
      // The datasets a domain's build syncs are the domain's own.
      const own = DOMAINS.find((d) => d.name === folder)!.datasets.map((e) => e.info.name);
      expect((s.datasets ?? []).filter((n) => !own.includes(n)), folder).toEqual([]);
    }
  });

  it('routes declared to read no mirror file read none (serve caches their answers for the hour)', async () => {
    const seen: string[] = [];
    probeDatasetAccess((name) => seen.push(name));
    try {
      const hctx = handlerCtx(undefined, { mirrorDir });
      const pure = ROUTE_SAMPLES.filter((s) => {
        const l = ROUTES.find((r) => r.id === s.route)!.local!;
        return !l.datasets?.length && !l.optionalDatasets?.length;
      });
      expect(pure.length).toBeGreaterThan(MIN_PURE);
      for (const s of pure) {
        const u = new URL(s.path, 'http://x');
        const r = await callLocal({ method: s.method, path: u.pathname, query: Object.fromEntries(u.searchParams), ...(s.body !== undefined ? { body: s.body } : {}) }, hctx);
        expect([s.route, r.status, seen]).toEqual([s.route, 200, []]);
      }
      // That the probe sees a dataset read it was not told of (the calendar reads the bank holidays when
      // synced, not declared required) is the calendar's own test now: test/calendar/probe.test.ts.
    } finally {
      probeDatasetAccess(undefined);
    }
  });

  it('every route: the envelope through serve equals --source local, byte for byte, with the same exit code, in the shape its OpenAPI schema states', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Record<string, unknown>;
    const validate = answerValidator(doc);
    const misfits: string[] = [];
    for (const s of ROUTE_SAMPLES) {
      const { local, viaServe } = await both(s);
      expect(local.code, `${s.route}: ${local.stdout}`).toBe(0);
      expect(JSON.parse(local.stdout).data, s.route).toBeDefined();
      misfits.push(...validate(s.route, JSON.parse(local.stdout)));
      expect(viaServe.stdout, s.route).toBe(local.stdout);
      expect(viaServe.code, s.route).toBe(local.code);
    }
    expect(misfits).toEqual([]);
  }, 60_000);

  // Each domain's wide walk (test/<domain>/samples.ts `wide`): every record the fixture mirror answers, in
  // its published shape, in process (the serve path of each route is the byte-for-byte check above).
  it.each([...DOMAIN_SAMPLES].filter(([, s]) => s.wide).map(([d, s]) => [d, s] as const))('%s: every fixture record fits its published response schema', async (_d, s) => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as Record<string, unknown>;
    const validate = answerValidator(doc);
    const misfits: string[] = [];
    const columns = new Map<string, string[]>();
    const uncovered: string[] = [];
    const hctx = handlerCtx(undefined, { mirrorDir });
    const call = async (route: string, path: string, body?: unknown): Promise<any> => {
      const u = new URL(path, 'http://x');
      const r = await callLocal({ method: body === undefined ? 'GET' : 'POST', path: u.pathname, query: Object.fromEntries(u.searchParams), ...(body !== undefined ? { body } : {}) }, hctx);
      expect([path, r.status]).toEqual([path, 200]);
      misfits.push(...validate(route, r.envelope).map((e) => `${path}: ${e}`));
      // CSV: the record schema's columns hold every value a record carries (none is left out of the file)
      const recs = isErrorEnvelope(r.envelope) ? undefined : recordsOf(r.envelope, routeById(route));
      if (recs?.length) {
        columns.has(route) || columns.set(route, csvColumns((await recordSchemaFor(routeById(route)))!));
        const cols = columns.get(route)!;
        for (const rec of recs) {
          for (const [k, v] of Object.entries(flatten(rec))) {
            if (v === null || v === undefined || cols.some((c) => c === k || k.startsWith(`${c}.`))) continue;
            uncovered.push(`${route}: ${k}`);
          }
        }
      }
      return r.envelope;
    };
    const allPages = async (route: string, path: string): Promise<any[]> => {
      const out: any[] = [];
      for (let page = 1; ; page++) {
        const env = await call(route, `${path}${path.includes('?') ? '&' : '?'}per_page=100&page=${page}`);
        out.push(...env.data);
        if (page >= (env.pagination?.total_pages ?? 1)) return out;
      }
    };
    await s.wide!({ call, allPages, validate });
    expect(misfits).toEqual([]);
    expect([...new Set(uncovered)]).toEqual([]);
  }, 120_000);

  it('error answers too: same envelope, same exit code', async () => {
    for (const s of ERROR_SAMPLES) {
      const { local, viaServe } = await both(s);
      expect(local.code, s.path).not.toBe(0);
      expect(JSON.parse(local.stdout).error.code, s.path).toBeTruthy();
      expect([viaServe.stdout, viaServe.code], s.path).toEqual([local.stdout, local.code]);
    }
  }, 60_000);

  it("the live client's pacing met serve's rate limit without a single 429", () => {
    const st = live.stats();
    expect(st.calls).toBeGreaterThanOrEqual(ROUTE_SAMPLES.length);
    expect(st.requests).toBeGreaterThan(2 * 10); // more than two windows' worth, whatever is registered
    expect(st.rateLimit.limit).toBe(10);
    expect(st.rateLimited).toBe(0);
    // More calls than one window holds: the client waited for the next window instead of being refused.
    expect(st.pacingWaits).toBeGreaterThanOrEqual(Math.floor(st.requests / 10) - 1);
    expect(server.accessLog.filter((l) => / 429 /.test(l))).toEqual([]);
    // Exact credits: the server's balance and the client's count agree.
    expect(st.creditsRemaining).toBe(100_100 - st.creditsSpent);
  });
});
