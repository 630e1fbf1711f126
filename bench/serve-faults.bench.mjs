#!/usr/bin/env node
/**
 * `publicdata serve` under hostile bodies (issue 21 item 11; run `npm run build` first).
 *
 *  (a) A 5 MB POST body `[[[…]]]` (2.5 million arrays, each inside the next): time until serve answers 400 vs a small
 *      valid POST (take-home calculate) on the same server. Target <= 3x: the refusal comes from the
 *      first 33 bytes, whatever follows. Before the depth cap (serve of commit a7b6839, same machine, load
 *      ~20): 8,440 ms vs 21 ms, 395x, FAIL; and (b) then failed outright: GETs timed out with 408.
 *  (b) GET /v1/tax/years latency (median of 40 sequential requests) while 10 clients (another process)
 *      keep sending such bodies vs while 10 clients keep sending small valid POSTs. Target <= 2x: a hostile
 *      body costs the server no more than an ordinary request (the issue saw stalls of up to 5.7 s).
 *
 * BENCH_FAULT_PAIRS pairs (default 5). stdout: one line per measure (bench/README.md format).
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { paired, pairLine, stats } from './lib/pairs.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const work = join(here, '.work', 'serve-faults-data');
const PAIRS = Number(process.env.BENCH_FAULT_PAIRS ?? 5);
const log = (...a) => console.error('[serve-faults bench]', ...a);
mkdirSync(work, { recursive: true });
if (!existsSync(join(repo, 'dist', 'cli', 'main.cjs'))) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}

const child = spawn(process.execPath, [join(repo, 'bin', 'publicdata.cjs'), 'serve', '--port', '0', '--quiet'], {
  cwd: repo,
  env: { ...process.env, PUBLICDATA_DATA_DIR: work },
  stdio: ['ignore', 'ignore', 'pipe'],
});
const url = await new Promise((resolve, reject) => {
  let buf = '';
  child.stderr.on('data', (d) => {
    buf += d;
    const m = /the v1 API at (http:\/\/\S+\/v1)/.exec(buf);
    if (m) resolve(new URL(m[1]));
  });
  child.once('exit', (c) => reject(new Error(`serve exited ${c}: ${buf}`)));
});

// Valid JSON: 2.5M arrays each holding the next (an unterminated `[[[…` costs JSON.parse little: it fails
// before building anything; a closed one builds every array).
const HALF = 5 * 1024 * 1024 / 2;
const NESTED = Buffer.concat([Buffer.alloc(HALF, '['), Buffer.alloc(HALF, ']')]);
const SMALL = Buffer.from(JSON.stringify({ gross_income: 45000 }));

/**
 * ms from the start of the request until serve answers it (its status line arrives) or, for the nested
 * body, stops taking it (it answers 400 and closes: the client may see the reset before the status line,
 * as with any early answer to an upload). Raw socket, so a reset cannot hide an answer already read.
 */
function post(body, expect) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const sock = connect(Number(url.port), url.hostname);
    let text = '';
    let done = false;
    const finish = (ok, why) => {
      if (done) return;
      done = true;
      sock.destroy();
      if (ok) resolve(performance.now() - t0);
      else reject(new Error(why));
    };
    sock.on('data', (d) => {
      text += d.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (m) finish(Number(m[1]) === expect, `answered ${m[1]}, expected ${expect}`);
    });
    sock.on('error', () => finish(expect === 400, 'connection reset before an answer'));
    sock.on('close', () => finish(expect === 400, 'connection closed before an answer'));
    sock.write(`POST /v1/tax/take-home/calculate HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
    sock.end(body);
  });
}

function getYears() {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request({ host: url.hostname, port: url.port, path: '/v1/tax/years', agent: false }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`GET ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

async function medianGet(n = 40) {
  const xs = [];
  for (let i = 0; i < n; i++) xs.push(await getYears());
  return stats(xs).median;
}

// (a)
const refusal = await paired(PAIRS, () => post(NESTED, 400), () => post(SMALL, 200), { warmup: 1 });
pairLine({ measure: 'serve: 5 MB body nested 2.5M deep, time to its 400', unit: 'ms', what: 'small valid POST take-home, time to its 200', target: 3, ...refusal });

// (b) The flooding clients run in a process of their own (writing 50 MB a round would otherwise slow
// this process's own GETs), 10 at a time, until told to stop; the baseline floods with small valid POSTs.
function startFlood(kind) {
  const code = `
    import { connect } from 'node:net';
    const body = ${kind === 'nested' ? `Buffer.concat([Buffer.alloc(${HALF}, '['), Buffer.alloc(${HALF}, ']')])` : 'Buffer.from(JSON.stringify({ gross_income: 45000 }))'};
    let on = true;
    process.on('SIGTERM', () => (on = false));
    const one = () => new Promise((resolve) => {
      const s = connect(${Number(url.port)}, '${url.hostname}');
      s.on('data', () => s.destroy());
      s.on('error', () => undefined);
      s.on('close', resolve);
      s.write('POST /v1/tax/take-home/calculate HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nContent-Type: application/json\\r\\nContent-Length: ' + body.length + '\\r\\nConnection: close\\r\\n\\r\\n');
      s.end(body);
    });
    await Promise.all(Array.from({ length: 10 }, async () => { while (on) await one(); }));
    process.exit(0);`;
  const c = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: 'inherit' });
  return { stop: () => new Promise((r) => { c.once('exit', r); c.kill('SIGTERM'); }) };
}
async function getsDuring(kind) {
  const f = startFlood(kind);
  await new Promise((r) => setTimeout(r, 300));
  const m = await medianGet();
  await f.stop();
  return m;
}
const underFlood = await paired(PAIRS, () => getsDuring('nested'), () => getsDuring('small'), { warmup: 1 });
pairLine({ measure: 'serve: GET /v1/tax/years median latency while 10 clients send 5 MB nested bodies', unit: 'ms', what: 'same GETs while 10 clients send small valid POSTs', target: 2, ...underFlood });

child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
log('done');
