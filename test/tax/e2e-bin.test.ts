/**
 * Moved from test/e2e/bin.test.ts (issue 33): the tax domain through the built `bin/publicdata.cjs` (the
 * built binary holds only the real domains, never the test-only example): take-home offline, a bad amount,
 * --batch on the bundled worker threads, and live calls against the real test API server on 127.0.0.1.
 */
import { execa } from 'execa';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { callLocal } from '../../src/backends/local.js';
import { handlerCtx } from '../support/handler-context.js';
import { TEST_KEY } from '../support/api-server.js';
import { baseEnv, binRunner, useLiveApi, withBuiltServe } from '../support/e2e.js';

const captured: string[] = [];
const pd = binRunner(captured);

const api = useLiveApi();
const liveEnv = api.liveEnv;

describe('built binary: tax', () => {
  it("replaces a pack's partial code cache (its top level only) after the pack's first run, with one holding what the run compiled", async () => {
    // a copy of the built launcher and bundle, so the repository's own caches are left as they are
    const repo = join(__dirname, '..', '..');
    const root = mkdtempSync(join(tmpdir(), 'publicdata-cache-'));
    onTestFinished(() => rmSync(root, { recursive: true, force: true }));
    for (const d of ['bin', 'dist']) cpSync(join(repo, d), join(root, d), { recursive: true });
    for (const d of ['data', 'node_modules', 'package.json']) symlinkSync(join(repo, d), join(root, d));
    const chunks = join(root, 'dist', 'cli', 'chunks');
    const file = join(chunks, readdirSync(chunks).find((f) => /^ni-\w+\.cjs$/.test(f))!);
    // the state the build leaves a pack no build run loaded in: no `.cache`, and its compiled top level as
    // `.cache.partial` (made by a plain node, as the build makes it: this test's worker may run with other V8
    // flags, whose caches V8 would reject)
    rmSync(`${file}.cache`, { force: true });
    const make = `const vm = require('node:vm'), M = require('node:module'), fs = require('node:fs'), f = process.argv[1];
      fs.writeFileSync(f + '.cache.partial', new vm.Script(M.wrap(fs.readFileSync(f, 'latin1')), { filename: f }).createCachedData());`;
    await execa('node', ['-e', make, file], { env: baseEnv(), extendEnv: false });
    const top = readFileSync(`${file}.cache.partial`);
    const ni = () => execa('node', [join(root, 'bin', 'publicdata.cjs'), 'tax', 'ni', '30000'], { env: baseEnv(), extendEnv: false });
    expect((await ni()).exitCode).toBe(0);
    expect(existsSync(`${file}.cache.partial`)).toBe(false);
    const full = statSync(`${file}.cache`);
    expect(full.size).toBeGreaterThan(top.length);
    // accepted from then on: not written again
    expect((await ni()).exitCode).toBe(0);
    expect(statSync(`${file}.cache`).ino).toBe(full.ino);
  });

  it('serve publishes the take-home schema in full (kept outside the bundle, imported from dist/src)', async () => {
    await withBuiltServe(async (url) => {
      const doc = (await (await fetch(`${url}/openapi.json`)).json()) as { components: { schemas: Record<string, any> } };
      expect(doc.components.schemas['tax.take-home.calculate'].properties.data.required).toContain('net_annual');
    });
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

  it('--rank reaches the earnings route, whose domain the binary loads only then (src/registry.ts)', async () => {
    const r = await pd(['tax', 'take-home', '45000', '--rank', '--region', 'North West', '--format', 'json'], baseEnv());
    expect(r.exitCode, r.stderr).toBe(0);
    const env = JSON.parse(r.stdout);
    expect(env.data.net_annual).toBe(35919.6);
    // no earnings mirror here: the earnings route's own dataset_not_synced words, so it was matched and run
    expect(env.data.rank).toBeNull();
    expect(env.data.rank_note).toContain("Run 'publicdata sync earnings'");
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

describe('live against the test API server: tax', () => {
  it('returns the envelope of GET /v1/tax/years unchanged', async () => {
    const r = await pd(['api', 'GET', '/v1/tax/years', '--source', 'live'], liveEnv());
    expect(r.exitCode).toBe(0);
    const local = await callLocal(
      { method: 'GET', path: '/v1/tax/years', query: {} },
      handlerCtx(),
    );
    expect(r.stdout).toBe(JSON.stringify(local.envelope));
    expect(api.server().requests.at(-1)?.hadAuth).toBe(true);
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

  it('--max-credits refuses a POST that would pass the budget (exit 3)', async () => {
    const budget = await pd(['tax', 'take-home', '45000', '--source', 'live', '--max-credits', '5'], liveEnv());
    expect([budget.exitCode, JSON.parse(budget.stdout).error.code]).toEqual([3, 'credit_budget_exceeded']);
  });

});

describe('secrets', () => {
  it('the API key never appears in any captured output', () => {
    expect(captured.length).toBeGreaterThan(6);
    for (const text of captured) expect(text).not.toContain(TEST_KEY);
    for (const text of captured) expect(text).not.toContain(TEST_KEY.slice(8));
  });
});
