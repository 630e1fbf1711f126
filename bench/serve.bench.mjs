#!/usr/bin/env node
/**
 * `publicdata serve` throughput and latency (autocannon on loopback; run `npm run build` first).
 *
 *  (a) GET /v1/tax/years: requests/s through `publicdata serve` (the built CLI, single-user mode, its own
 *      process) vs a bare node:http server in its own process returning the same bytes. Target >= 0.8x (issue 37).
 *  (b) POST /v1/tax/take-home/calculate: requests/s vs the same bare baseline. Target >= 0.6x (issue 37).
 *      The same body each time, so after the first an answer-cache hit; then the same with a different
 *      salary on every request (every one computed), shown for context with no target.
 *  (c) GET /v1/property/price-paid/search?postcode=LS8%203BS on the price-paid bench mirror: p99 latency
 *      at 10 concurrent connections vs the single-request latency (median at 1 connection). Target <= 3x.
 *
 * 50 connections, BENCH_SERVE_SECONDS (default 10) per run, runs in pairs (baseline, measured, ...),
 * BENCH_SERVE_PAIRS pairs (default 3). (c) uses bench/.work/mirror as left by bench/property-price-paid.bench.mjs
 * (generated with BENCH_PP_ROWS rows, default 30M); when it is missing, runs that bench's generator and
 * sync with BENCH_PP_ROWS (set it small for a quick run).
 * stdout: one line per measure (bench/README.md format); details on stderr.
 */
import autocannon from 'autocannon';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { paired, pairLine, stats } from './lib/pairs.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const work = join(here, '.work');
const SECONDS = Number(process.env.BENCH_SERVE_SECONDS ?? 10);
const PAIRS = Number(process.env.BENCH_SERVE_PAIRS ?? 3);
const CONNECTIONS = 50;
const log = (...a) => console.error('[serve bench]', ...a);
mkdirSync(work, { recursive: true });

if (!existsSync(join(repo, 'dist', 'cli', 'main.cjs'))) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}

/** Start a child that prints its base URL on stderr or stdout; resolves {url, stop}. */
function startChild(args, env, pattern) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: repo, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let buf = '';
    const onData = (d) => {
      buf += d;
      const m = pattern.exec(buf);
      if (m) {
        child.stdout.off('data', onData);
        child.stderr.off('data', onData);
        resolve({
          url: m[1],
          pid: child.pid,
          stop: () =>
            new Promise((r) => {
              child.once('exit', r);
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${buf.slice(0, 2000)}`)));
  });
}

function startServe(dataDir) {
  return startChild([join(repo, 'bin', 'publicdata.cjs'), 'serve', '--port', '0', '--quiet'], { PUBLICDATA_DATA_DIR: dataDir }, /the v1 API at (http:\/\/\S+\/v1)/);
}

/** The baseline: node:http answering every request with the given bytes, as `serve` sends them. */
function startBare(bytes) {
  const file = join(work, 'serve-bare-body.json');
  writeFileSync(file, bytes);
  const code = `
    import { createServer } from 'node:http';
    import { readFileSync } from 'node:fs';
    const body = readFileSync(${JSON.stringify(file)});
    const s = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
        res.end(body);
      });
    });
    s.keepAliveTimeout = 5000;
    s.listen(0, '127.0.0.1', () => console.log('bare at http://127.0.0.1:' + s.address().port + '/v1'));
    process.on('SIGTERM', () => process.exit(0));`;
  return startChild(['--input-type=module', '-e', code], {}, /bare at (http:\/\/\S+\/v1)/);
}

async function cannon(opts) {
  const r = await autocannon({ connections: CONNECTIONS, duration: SECONDS, timeout: 30, ...opts });
  if (r.errors || r.timeouts || r.non2xx) throw new Error(`${opts.url}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx`);
  return r;
}

// ------------------------------------------------------------------------------------------------
// (a), (b): calculators, no mirror needed.
const emptyData = join(work, 'serve-empty-data');
mkdirSync(emptyData, { recursive: true });
const serve = await startServe(emptyData);
const yearsBytes = Buffer.from(await (await fetch(`${serve.url}/tax/years`)).arrayBuffer());
const bare = await startBare(yearsBytes);
log(`serve ${serve.url}, bare ${bare.url}; ${SECONDS} s per run, ${PAIRS} pairs, ${CONNECTIONS} connections`);
const rps = (r) => r.requests.average;
// Both servers warmed up before the pairs (3 s of each request kind): the lines compare steady states, not
// a first run of the measured server's code still being compiled against a bare server that has little to compile.
const body = JSON.stringify({ gross_income: 45000 });
const takeHome = { url: `${serve.url}/tax/take-home/calculate`, method: 'POST', body, headers: { 'content-type': 'application/json' } };
await cannon({ duration: 3, url: `${bare.url}/tax/years` });
await cannon({ duration: 3, url: `${serve.url}/tax/years` });
await cannon({ duration: 3, ...takeHome });

const getYears = await paired(
  PAIRS,
  async () => rps(await cannon({ url: `${serve.url}/tax/years` })),
  async () => rps(await cannon({ url: `${bare.url}/tax/years` })),
  { pids: [serve.pid, bare.pid] },
);
pairLine({ measure: `serve GET /v1/tax/years throughput (${CONNECTIONS} connections, ${SECONDS} s)`, unit: 'req/s', what: 'bare node:http, same bytes', target: 0.8, cmp: '>=', decimals: 2, ...getYears });

const postTakeHome = await paired(
  PAIRS,
  async () => rps(await cannon(takeHome)),
  async () => rps(await cannon({ url: `${bare.url}/tax/years` })),
  { pids: [serve.pid, bare.pid] },
);
pairLine({ measure: `serve POST /v1/tax/take-home/calculate throughput, the same body each time: answer-cache hits after the first (${CONNECTIONS} connections, ${SECONDS} s)`, unit: 'req/s', what: 'bare node:http GET tax/years bytes', target: 0.6, cmp: '>=', ...postTakeHome });

// The line above asks one calculation again and again: after the first, each is an answer-cache hit
// (charged and rate-limited, not recomputed). This one asks a different salary every time (more than the
// cache holds), so every request is parsed, validated and computed: shown for context, no target.
let salary = 0;
const distinct = await paired(
  PAIRS,
  async () =>
    rps(
      await cannon({
        url: `${serve.url}/tax/take-home/calculate`,
        requests: [{ method: 'POST', headers: { 'content-type': 'application/json' }, setupRequest: (r) => ({ ...r, body: JSON.stringify({ gross_income: 20000 + (salary++ % 50000) }) }) }],
      }),
    ),
  async () => rps(await cannon({ url: `${bare.url}/tax/years` })),
  { pids: [serve.pid, bare.pid] },
);
pairLine({ measure: `serve POST /v1/tax/take-home/calculate throughput, a different salary each request (${CONNECTIONS} connections, ${SECONDS} s)`, unit: 'req/s', what: 'bare node:http GET tax/years bytes', shown: true, ...distinct });
await serve.stop();
await bare.stop();

// ------------------------------------------------------------------------------------------------
// (c): price-paid search on the bench mirror.
const mirror = join(work, 'mirror', 'price_paid.duckdb');
if (!existsSync(mirror)) {
  log(`no price-paid bench mirror at ${mirror}: building it with bench/property-price-paid.bench.mjs (BENCH_PP_ROWS=${process.env.BENCH_PP_ROWS ?? '30000000'})`);
  const r = spawnSync(process.execPath, [join(here, 'property-price-paid.bench.mjs')], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, BENCH_LOAD_PAIRS: '1' } });
  if (!existsSync(mirror)) throw new Error(`price-paid bench did not leave a mirror (exit ${r.status})`);
}
const pp = await startServe(work);
const search = `${pp.url}/property/price-paid/search?postcode=LS8%203BS`;
const first = await fetch(search);
if (first.status !== 200) throw new Error(`search answered ${first.status}: ${await first.text()}`);
const latency = await paired(
  PAIRS,
  async () => (await cannon({ url: search, connections: 10 })).latency.p99,
  async () => (await cannon({ url: search, connections: 1 })).latency.p50,
  { pids: [pp.pid] },
);
pairLine({ measure: 'serve price-paid search LS8 3BS p99 latency at 10 connections', unit: 'ms', what: 'median latency at 1 connection', target: 3, ...latency });
log(`p99 at 10 connections ${stats(latency.a).median} ms; single ${stats(latency.b).median} ms`);
await pp.stop();
