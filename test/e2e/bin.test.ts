/**
 * End-to-end: the built `bin/publicdata.cjs` run as a process (execa), against the real test API server
 * on 127.0.0.1 for live calls. `npm test` builds first.
 */
import { execa } from 'execa';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callLocal } from '../../src/backends/local.js';
import { handlerCtx } from '../support/handler-context.js';
import { DEFAULT_MAX_RETRIES } from '../../src/backends/live.js';
import { startApiServer, TEST_KEY, type ApiServer } from '../support/api-server.js';

const BIN = join(__dirname, '..', '..', 'bin', 'publicdata.cjs');
const captured: string[] = [];

function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'publicdata-e2e-'));
  return {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    PUBLICDATA_CONFIG_DIR: join(dir, 'config'),
    PUBLICDATA_DATA_DIR: join(dir, 'data'),
    NO_COLOR: '1',
    ...extra,
  };
}

async function pd(args: string[], env: Record<string, string>, input?: string) {
  const r = await execa('node', [BIN, ...args], { env, extendEnv: false, reject: false, ...(input !== undefined ? { input } : {}) });
  captured.push(r.stdout, r.stderr);
  return r;
}

let server: ApiServer;
beforeAll(async () => {
  // Injected 5xx answers ask for an immediate retry (Retry-After: 0), so the retry paths below run
  // without waiting through the real back-off (its timing is tested in process, test/live).
  server = await startApiServer({ limit: 50, windowMs: 2000, faultRetryAfter: 0 });
});
afterAll(async () => {
  await server.close();
});

const liveEnv = (key = TEST_KEY) => baseEnv({ PUBLICDATA_BASE_URL: server.url, PUBLICDATA_API_KEY: key });

describe('built binary', () => {
  it('prints its version', async () => {
    const r = await pd(['--version'], baseEnv());
    expect([r.exitCode, r.stdout]).toEqual([0, '0.1.0']);
  });

  it('serve publishes every route\'s response schema (kept outside the bundle, imported from dist/src)', async () => {
    const child = execa('node', [BIN, 'serve', '--port', '0', '--quiet'], { env: baseEnv(), extendEnv: false, reject: false });
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        const seen = (d: Buffer) => {
          out += d.toString();
          const m = /(http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out);
          if (m) resolve(m[1]!);
        };
        child.stdout!.on('data', seen);
        child.stderr!.on('data', seen);
        void child.then((r) => reject(new Error(`serve exited: ${r.stderr}`)));
      });
      const doc = (await (await fetch(`${url}/openapi.json`)).json()) as { components: { schemas: Record<string, any> }; paths: Record<string, any> };
      const { PRODUCTION_ROUTES: ROUTES } = await import('../support/production.js');
      expect(ROUTES.filter((r) => !doc.components.schemas[r.id]).map((r) => r.id)).toEqual([]);
      expect(doc.components.schemas['tax.take-home.calculate'].properties.data.required).toContain('net_annual');
    } finally {
      child.kill('SIGTERM');
      await child;
    }
  });

  it('runs the main job offline with no key: take-home on £45,000 in 2026-27', async () => {
    const r = await pd(['tax', 'take-home', '45000'], baseEnv());
    expect(r.exitCode).toBe(0);
    const env = JSON.parse(r.stdout);
    expect(env.data.tax_year).toBe('2026-27');
    // £45,000: income tax 20% of (45,000 - 12,570) = 6,486.00; NI 8% of (45,000 - 12,570) = 2,594.40.
    expect(env.data.deductions.income_tax.amount).toBe(6486);
    expect(env.data.deductions.national_insurance.employee).toBe(2594.4);
    expect(env.data.net_annual).toBe(35919.6);
    expect(env.meta.api_version).toBe('v1');
  });

  it('bad arguments: one line in the error envelope, exit 2, no stack trace', async () => {
    const r = await pd(['tax', 'take-home', 'lots'], baseEnv());
    expect(r.exitCode).toBe(2);
    expect(r.stdout.split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout).error.code).toBe('bad_request');
    // Issue 10 item 3: the one-line message also goes to stderr (as gh does), so a person sees it.
    expect(r.stderr).toBe(`error bad_request: ${JSON.parse(r.stdout).error.message}`); // execa strips the final newline
  });
});

describe('batch on worker threads', () => {
  it('a batch of several chunks comes back in input order, each line as the calculator answers it alone', async () => {
    // 5,000 lines (three 2,048-line chunks, so the built binary uses its two workers and hands result
    // buffers back and forth), with a bad line in the second chunk and the third.
    const bodies = Array.from({ length: 5000 }, (_, i) => ({ gross_income: 12000 + i * 37, region: i % 2 ? 'scotland' : 'england_wales_ni', tax_year: '2025-26' }));
    const lines = bodies.map((b) => JSON.stringify(b));
    lines[2999] = 'not json';
    lines[4099] = '{"gross_income":-5,"tax_year":"2025-26"}';
    const r = await pd(['tax', 'take-home', '--batch'], baseEnv({ PUBLICDATA_BATCH_WORKERS: '2' }), `${lines.join('\n')}\n`);
    expect(r.exitCode).toBe(2);
    const out = r.stdout.split('\n');
    expect(out).toHaveLength(5000);
    expect(JSON.parse(out[2999]!).error.message).toBe('Line 3000: not valid JSON.');
    expect(JSON.parse(out[4099]!).error.message).toBe("Invalid field 'gross_income': must be at least 0.");
    for (const i of [0, 1, 2047, 2048, 2998, 3000, 4095, 4096, 4999]) {
      const local = await callLocal({ method: 'POST', path: '/v1/tax/take-home/calculate', query: {}, body: bodies[i] }, handlerCtx());
      expect(out[i]).toBe(JSON.stringify(local.envelope));
    }
  });
});

describe('sql to a pipe: DuckDB writes the NDJSON itself (COPY to /dev/stdout)', () => {
  const Q = `SELECT i, i / 8 AS eighth, 'r"' || i || chr(10) AS s, DATE '2024-01-01' + i::INTEGER AS d FROM range(6000) t(i) ORDER BY i`;
  // A shell pipe makes node's stdout a FIFO (execa's own stdout is a socket, which keeps the in-process path).
  const piped = (args: string, tail: string) =>
    execa('bash', ['-c', `node ${JSON.stringify(BIN)} ${args} | ${tail}; echo "status \${PIPESTATUS[0]}" >&2`], { env: baseEnv(), extendEnv: false, reject: false });

  it('the same bytes as the lines read in process', async () => {
    const direct = await pd(['sql', Q, '--format', 'ndjson'], baseEnv());
    const lines = direct.stdout.split('\n');
    expect(lines).toHaveLength(6000);
    expect(lines[9]).toBe('{"i":9,"eighth":1.125,"s":"r\\"9\\n","d":"2024-01-10"}');
    const r = await piped(`sql ${JSON.stringify(Q)} --format ndjson`, 'cat');
    expect(r.stderr).toBe('status 0');
    expect(r.stdout).toBe(direct.stdout);
  });

  it('a reader that stops early (head) ends it quietly; a DuckDB error mid-copy is the error envelope', async () => {
    const head = await piped(`sql ${JSON.stringify('SELECT i FROM range(10000000) t(i)')} --format ndjson`, 'head -n 2');
    expect(head.stdout).toBe('{"i":0}\n{"i":1}');
    expect(head.stderr).toBe('status 0');
    const bad = await piped(`sql ${JSON.stringify("SELECT CASE WHEN i = 5000 THEN error('boom') ELSE i END AS v FROM range(9000) t(i) ORDER BY i")} --format ndjson`, 'tail -n 1');
    expect(JSON.parse(bad.stdout).error.message).toContain('boom');
    expect(bad.stderr).toMatch(/boom[\s\S]*status [1-9]/);
    // failing half-way through a long COPY, DuckDB stops inside a line: the envelope still starts its own
    const half = await piped(`sql ${JSON.stringify("SELECT CASE WHEN i = 500000 THEN error('boom') ELSE i END AS x FROM range(1000000) t(i)")} --format ndjson`, 'tail -n 1');
    expect(JSON.parse(half.stdout).error.message).toContain('boom');
  });

  it('a query reading its own output (/dev/stdout, the one path it may open) is refused, not left waiting for ever', async () => {
    for (const q of ["SELECT * FROM read_text('/dev/stdout')", "SELECT size FROM read_blob('/dev/' || 'stdout')"]) {
      const r = await piped(`sql ${JSON.stringify(q)} --format ndjson`, 'cat');
      expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'invalid_parameter', message: expect.stringContaining("reads this run's own output") });
      expect(r.stderr).toMatch(/status 2$/);
    }
    // text that only mentions such a path is data, and runs
    const ok = await piped(`sql ${JSON.stringify("SELECT '/dev/sda' AS s, 'stdout' AS t")} --format ndjson`, 'cat');
    expect([ok.stdout, ok.stderr]).toEqual(['{"s":"/dev/sda","t":"stdout"}', 'status 0']);
  });
});

describe('live against the test API server', () => {
  it('returns the envelope of GET /v1/tax/years unchanged', async () => {
    const r = await pd(['api', 'GET', '/v1/tax/years', '--source', 'live'], liveEnv());
    expect(r.exitCode).toBe(0);
    const local = await callLocal(
      { method: 'GET', path: '/v1/tax/years', query: {} },
      handlerCtx(),
    );
    expect(r.stdout).toBe(JSON.stringify(local.envelope));
    expect(server.requests.at(-1)?.hadAuth).toBe(true);
  });

  it('follows pagination with --all, streaming NDJSON', async () => {
    const r = await pd(['tax', 'years', '--all', '--per-page', '10', '--format', 'ndjson', '--source', 'live'], liveEnv());
    expect(r.exitCode).toBe(0);
    const years = r.stdout.trim().split('\n').map((l) => JSON.parse(l).identifier);
    expect(years.length).toBeGreaterThanOrEqual(37);
    expect(new Set(years).size).toBe(years.length);
    expect(years).toContain('1990-91');
    expect(years).toContain('2026-27');
  });

  it('--all with --max-credits refuses the pages that would pass the budget', async () => {
    const r = await pd(['tax', 'years', '--all', '--per-page', '10', '--format', 'ndjson', '--source', 'live', '--max-credits', '2'], liveEnv());
    expect(r.exitCode).toBe(3);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.slice(0, 10).every((l) => typeof l.identifier === 'string')).toBe(true);
    expect(lines.at(-1).error.code).toBe('credit_budget_exceeded');
  });

  it('maps auth, credits and server failures to their exit codes', async () => {
    const bad = await pd(['api', 'GET', '/v1/calendar/regions', '--source', 'live'], liveEnv('gd_test_0000000000000000000000000000dead'));
    expect([bad.exitCode, JSON.parse(bad.stdout).error.code]).toEqual([4, 'unauthorized']);

    const budget = await pd(['tax', 'take-home', '45000', '--source', 'live', '--max-credits', '5'], liveEnv());
    expect([budget.exitCode, JSON.parse(budget.stdout).error.code]).toEqual([3, 'credit_budget_exceeded']);

    server.setCredits(0);
    const broke = await pd(['api', 'GET', '/v1/calendar/regions', '--source', 'live'], liveEnv());
    expect([broke.exitCode, JSON.parse(broke.stdout).error.code]).toEqual([3, 'insufficient_credits']);
    server.setCredits(1_000_000);

    // One attempt plus DEFAULT_MAX_RETRIES (5) retries, every one a 500.
    server.injectFaults(500, 500, 500, 500, 500, 500);
    const down = await pd(['api', 'GET', '/v1/calendar/regions', '--source', 'live'], liveEnv());
    expect(down.exitCode).toBe(6);
    expect(JSON.parse(down.stdout).error.message).toBeTruthy();
  });

  it('retries a 5xx and succeeds when the server recovers', async () => {
    expect(DEFAULT_MAX_RETRIES).toBe(5);
    server.injectFaults('reset', 503);
    const r = await pd(['api', 'GET', '/v1/calendar/regions', '--source', 'live'], liveEnv());
    expect([r.exitCode, JSON.parse(r.stdout).data.regions.length]).toEqual([0, 3]);
  });

  it('--verbose logs requests to stderr with the key redacted', async () => {
    const r = await pd(['calendar', 'regions', '--source', 'live', '--verbose'], liveEnv());
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/GET .*\/v1\/calendar\/regions/);
    expect(r.stderr).not.toContain(TEST_KEY);
  });
});

describe('secrets', () => {
  it('the API key never appears in any captured output', () => {
    expect(captured.length).toBeGreaterThan(10);
    for (const text of captured) expect(text).not.toContain(TEST_KEY);
    for (const text of captured) expect(text).not.toContain(TEST_KEY.slice(8));
  });
});
