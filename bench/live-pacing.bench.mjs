#!/usr/bin/env node
// Live client pacing: 60 sequential GETs against the test API server (real sockets) with a limit of
// 20 requests per 2-second window. The job starts at a window boundary, so the ideal is two full
// windows of waiting plus the time the last 20 requests take without any limit (measured in this run
// with raw undici on a separate key). Target: <= 1.15x ideal and no 429 after the first window.
//
// Needs `npm run build` (dist/src). The test server (test/support/api-server.ts) is transpiled here
// with TypeScript's transpileModule into dist/test/support/, next to the built sources it imports.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const N = 60;
const LIMIT = 20;
const WINDOW_MS = 2000;
const TARGET = 1.15;
const KEY = 'gd_test_bench0000000000000000000000000001';
const BASELINE_KEY = 'gd_test_bench0000000000000000000000000002';

const liveJs = join(root, 'dist/src/backends/live.js');
if (!existsSync(liveJs)) {
  process.stderr.write('live-pacing: dist/src/backends/live.js missing: run `npm run build` first\n');
  process.exit(1);
}

// Transpile the TS test server next to the built sources (its imports are relative: ../../src/...).
const ts = (await import('typescript')).default;
const src = readFileSync(join(root, 'test/support/api-server.ts'), 'utf8');
const out = ts.transpileModule(src, {
  compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
}).outputText;
const serverJs = join(root, 'dist/test/support/api-server.js');
mkdirSync(dirname(serverJs), { recursive: true });
writeFileSync(serverJs, out);

const { startApiServer } = await import(pathToFileURL(serverJs).href);
const { createLiveBackend } = await import(pathToFileURL(liveJs).href);
const { Agent, request } = await import('undici');

const server = await startApiServer({ keys: [KEY, BASELINE_KEY], limit: LIMIT, windowMs: WINDOW_MS });
const path = '/v1/calendar/regions';

// Baseline batch: LIMIT raw undici requests, keep-alive, no pacing (warm-up first).
const agent = new Agent({ keepAliveTimeout: 10_000 });
async function raw() {
  const r = await request(`${server.url}/calendar/regions`, {
    headers: { authorization: `Bearer ${BASELINE_KEY}`, accept: 'application/json' },
    dispatcher: agent,
  });
  const text = await r.body.text();
  if (r.statusCode !== 200) throw new Error(`baseline got ${r.statusCode}: ${text.slice(0, 200)}`);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
await sleep(server.windowStart(Date.now()) + WINDOW_MS - Date.now() + 5);
for (let i = 0; i < 3; i++) await raw();
// Two batches in two windows; the faster one is the baseline (a stricter ideal).
let batchMs = Infinity;
for (let b = 0; b < 2; b++) {
  await sleep(server.windowStart(Date.now()) + WINDOW_MS - Date.now() + 5);
  const tb = performance.now();
  for (let i = 0; i < LIMIT; i++) await raw();
  batchMs = Math.min(batchMs, performance.now() - tb);
}
await agent.close();

// The job: start just after a window boundary, so the first window is a full one.
const backend = createLiveBackend({ apiKey: KEY, baseUrl: server.url, env: {} });
const before = server.requests.length;
const boundary = server.windowStart(Date.now()) + WINDOW_MS;
await sleep(boundary - Date.now() + 5);
const t0wall = Date.now();
const t0 = performance.now();
let failures = 0;
for (let i = 0; i < N; i++) {
  const r = await backend.call({ method: 'GET', path, query: {} });
  if (r.status !== 200) failures++;
}
const elapsedMs = performance.now() - t0;
const st = backend.stats();
await backend.close();
const reqs = server.requests.slice(before);
await server.close();

const firstWindowEnd = server.windowStart(t0wall) + WINDOW_MS;
const late429 = reqs.filter((r) => r.status === 429 && r.at >= firstWindowEnd).length;
const all429 = reqs.filter((r) => r.status === 429).length;
const windowsWaited = Math.ceil(N / LIMIT) - 1;
// Ideal: from t0 to the start of the last window, plus one unpaced batch.
const idealMs = server.windowStart(t0wall) + windowsWaited * WINDOW_MS - t0wall + batchMs;
const ratio = elapsedMs / idealMs;
const pass = ratio <= TARGET && late429 === 0 && failures === 0;

process.stdout.write(
  `live pacing ${N} req @ ${LIMIT}/${WINDOW_MS / 1000}s: ${(elapsedMs / 1000).toFixed(2)} s, ${late429} 429s after first window` +
    ` | baseline ideal: ${(idealMs / 1000).toFixed(2)} s | ratio ${ratio.toFixed(2)}x | target <= ${TARGET}x | ${pass ? 'PASS' : 'FAIL'}\n`,
);
process.stderr.write(
  `live-pacing: unpaced batch of ${LIMIT}: ${batchMs.toFixed(1)} ms; requests sent ${st.requests}, 429s ${all429}, ` +
    `pacing waits ${st.pacingWaits} (${(st.waitedMs / 1000).toFixed(2)} s), non-200 answers ${failures}, ` +
    `start offset in window ${t0wall - server.windowStart(t0wall)} ms\n`,
);
process.exit(pass ? 0 : 1);
