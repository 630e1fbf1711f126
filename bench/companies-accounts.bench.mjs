#!/usr/bin/env node
/**
 * Accounts benchmarks (imports from dist/: run `npm run build` first).
 *
 *  (a) extraction throughput: extractDocument over the same in-memory documents as a bare pass of the same
 *      saxes parser with no handlers (documents per second, pairs). Target >= 0.6x.
 *  (b) the worker pool with 2 workers vs 1 worker over the daily zip of (c), as the sync drives it: the
 *      main thread reads the central directory and hands out entries; each worker inflates its members by
 *      offset, extracts them and writes its staging CSVs. Target >= 1.6x.
 *  (c) `sync accounts --from` a generated daily zip of BENCH_ACCOUNTS_DOCS documents (default 10,000) in the
 *      real formats (the 13 real members re-numbered, plus generated WebFiling, IRIS, full-accounts and
 *      plain XBRL documents). Target <= 60 s.
 *  (d) one incremental daily zip vs a 30-day load (30 daily zips of BENCH_ACCOUNTS_DAILY documents, default
 *      9,500 as in a real daily zip, from a local HTTP server through discovery; BENCH_LOAD_PAIRS pairs,
 *      default 2). Target <= 10%.
 * BENCH_ACCOUNTS_PARTS (say "b,d") runs some of them.
 *  (e) `companies financials|trends|health <n> --source local` as processes vs a node process that opens
 *      the mirror and runs SELECT 1 (10 pairs each). Target <= 1.5x. `companies benchmarks <sic>`: <= 2x.
 * stdout: one line per measure (bench/README.md format); details on stderr.
 */
import { createServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { unzipSync, zipSync } from 'fflate';
import { paired, pairLine, stats, timeProcess as timeChild } from './lib/pairs.mjs';
import { accountsDocument, memberName } from '../test/companies/accounts-gen.mjs';
import { runNode as runChild } from './lib/child.mjs';
const runNode = (code, env = {}) => runChild(code, { env }).result;

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const work = join(here, '.work', 'accounts');
const dist = join(repo, 'dist');
const DOCS = Number(process.env.BENCH_ACCOUNTS_DOCS ?? 10_000);
// A real daily zip: 9,532 members in one 2026 pack (ch-xbrl docs/edge-cases.md; the CH FAQ gives 30-110
// MB a day). At 300 a day (the earlier default) the whole 30-day load was 9,000 documents, fewer than one
// real daily zip, so the ratio measured the sync's start-up rather than an incremental against a full load.
const DAILY = Number(process.env.BENCH_ACCOUNTS_DAILY ?? 9500);
const LOAD_PAIRS = Number(process.env.BENCH_LOAD_PAIRS ?? 2);
/** Which measures to run (BENCH_ACCOUNTS_PARTS, say "b,d"); (e) reads the mirror (c) builds. */
const PARTS = new Set((process.env.BENCH_ACCOUNTS_PARTS ?? 'a,b,c,d,e').split(',').map((x) => x.trim()));
if (PARTS.has('e')) PARTS.add('c');
const log = (...a) => console.error('[accounts bench]', ...a);
/** CPU seconds (user + system, all threads) of a series, its median as text: steadier than wall time on a shared machine. */
const cpuMedian = (xs) => stats(xs).median.toFixed(2);
const url = (p) => pathToFileURL(p).href;
mkdirSync(work, { recursive: true });

if (!existsSync(join(dist, 'src', 'domains', 'companies', 'sync', 'accounts', 'extract.js'))) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}
const { extractDocument, bareParse } = await import(url(join(dist, 'src', 'domains', 'companies', 'sync', 'accounts', 'extract.js')));
const { createPool } = await import(url(join(dist, 'src', 'domains', 'companies', 'sync', 'accounts', 'pool.js')));
const { listEntries } = await import(url(join(dist, 'sync', 'formats', 'zip.js')));

// ------------------------------------------------------------------------------------------------
// Documents in the real formats

const FIX = join(repo, 'test', 'fixtures', 'companies', 'accounts');
const realDocs = [
  ...readdirSync(FIX).filter((f) => f.endsWith('.html')).map((f) => readFileSync(join(FIX, f))),
  ...Object.values(unzipSync(readFileSync(join(FIX, 'Accounts_Bulk_Data-2023-03-02.zip')))).map((b) => Buffer.from(b)),
];
const STYLES = ['webfiling', 'iris', 'full', 'xbrl'];
const SICS = ['62012', '62020', '70229', '41100', '56101'];

/** Document i: one of the 13 real members (re-numbered) or a generated one; about 60% real. */
function doc(i) {
  const company = String(20000000 + i);
  const bsd = `2026-0${1 + (i % 6)}-${i % 2 ? '28' : '15'}`;
  if (i % 5 < 3) return { name: memberName(company, bsd), data: realDocs[i % realDocs.length] };
  const style = STYLES[i % 4];
  const k = 1 + (i % 97);
  const data = accountsDocument({
    style, company, name: `BENCH COMPANY ${i} LIMITED`, bsd,
    cur: { TurnoverRevenue: 100000 * k, CostSales: 60000 * k, GrossProfitLoss: 40000 * k, ProfitLossOnOrdinaryActivitiesBeforeTax: 9000 * k - 200000, FixedAssets: 50000 * k, CurrentAssets: 70000 * k, Creditors: 30000 * k, NetAssetsLiabilities: 90000 * k, CashBankOnHand: 10000 * k, DirectorRemuneration: 1000 * k, AverageNumberEmployeesDuringPeriod: k },
    prev: { TurnoverRevenue: 90000 * k, FixedAssets: 45000 * k, CurrentAssets: 60000 * k, NetAssetsLiabilities: 80000 * k },
  });
  return { name: memberName(company, bsd, style === 'xbrl' ? 'xml' : 'html'), data: Buffer.from(data) };
}

/** A zip of the entries, deflated (fflate in memory: yazl's per-entry streams took ~80 s for 9,500). */
async function zipOf(entries, path) {
  const mtime = new Date('2026-11-01T00:00:00Z');
  writeFileSync(path, zipSync(Object.fromEntries(entries.map((e) => [e.name, [e.data, { level: 6, mtime }]]))));
}


/** The generated daily zip of DOCS documents (made once, kept in bench/.work). */
async function dailyZip() {
  const zip = join(work, `Accounts_Bulk_Data-2026-11-02.zip`);
  if (!existsSync(zip) || !existsSync(`${zip}.n`) || readFileSync(`${zip}.n`, 'utf8') !== String(DOCS)) {
    log(`generating a daily zip of ${DOCS} documents`);
    await zipOf(Array.from({ length: DOCS }, (_, i) => doc(i)), zip);
    writeFileSync(`${zip}.n`, String(DOCS));
  }
  return zip;
}

// ------------------------------------------------------------------------------------------------
// (a) extraction vs bare parse, in process

if (PARTS.has('a')) {
  const sample = Array.from({ length: 400 }, (_, i) => doc(i));
  const bytes = sample.reduce((n, d) => n + d.data.length, 0);
  const rate = (fn) => () => {
    const t0 = performance.now();
    for (const d of sample) fn(d);
    return sample.length / ((performance.now() - t0) / 1000);
  };
  const extract = rate((d) => {
    const r = extractDocument(d.data, d.name);
    if (!r.ok) throw new Error(`${d.name}: ${r.reason}`);
  });
  const bare = rate((d) => bareParse(d.data));
  const r = await paired(5, extract, bare, { warmup: 1 });
  log(`(a) ${sample.length} documents, ${(bytes / 1e6).toFixed(1)} MB per pass`);
  pairLine({ measure: 'accounts extraction throughput (400 documents in the real formats)', unit: 'docs/s', what: 'bare saxes pass, no handlers', target: 0.6, cmp: '>=', decimals: 2, ...r });
}

// ------------------------------------------------------------------------------------------------
// (b) 2 workers vs 1 worker

if (PARTS.has('b')) {
  // The generated daily zip of (c): a real daily zip's size (9,532 members in one 2026 pack, see the top).
  // At 3,000 members (the earlier size) each worker's JIT warm-up, about 0.5 CPU-seconds of V8's background
  // compiling per worker, was a fifth of the run and the ratio measured it: 1.26x.
  const N = DOCS;
  const poolZip = await dailyZip();
  const runPool = async (threads) => {
    const dir = join(work, `pool-${threads}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const pool = await createPool(dir, threads);
    const waits = [];
    let batch = [];
    const flush = async () => {
      await pool.ready();
      waits.push(pool.submit(batch));
      batch = [];
    };
    for await (const entry of listEntries(poolZip)) {
      batch.push({ zipPath: poolZip, entry, name: entry.name, zip: 'pool.zip', published: '2026-11-01', precision: 'day' });
      if (batch.length === 32) await flush();
    }
    if (batch.length) await flush();
    const filings = (await Promise.all(waits)).reduce((n, r) => n + r.filings, 0);
    await pool.close();
    const s = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0); // this process, all threads: the workers' and V8's background threads too
    cpu[threads].push((c.user + c.system) / 1e6);
    rmSync(dir, { recursive: true, force: true });
    if (filings !== N) throw new Error(`(b) ${filings} of ${N} members extracted`);
    return N / s;
  };
  const cpu = { 1: [], 2: [] };
  const r = await paired(5, () => runPool(2), () => runPool(1), { warmup: 1 });
  log(`(b) ${N} members per run, ${availableParallelism()} cores; CPU seconds 2 workers ${cpu[2].map((x) => x.toFixed(2)).join('/')}, 1 worker ${cpu[1].map((x) => x.toFixed(2)).join('/')} (warm-up round included)`);
  pairLine({ measure: `accounts extraction with 2 workers (${N} members, CPU ${cpuMedian(cpu[2])} s)`, unit: 'docs/s', what: `1 worker (CPU ${cpuMedian(cpu[1])} s)`, target: 1.6, cmp: '>=', ...r });
}

// ------------------------------------------------------------------------------------------------
// (c) one generated daily zip of DOCS documents, sync --from

// The sync chooses its workers (workerCount: every core for a daily zip, PUBLICDATA_SYNC_THREADS unset):
// each child reports the number it used, from the sync's own "(N worker threads)" message.
const syncCode = (opts) => `
  import { syncDataset } from '${url(join(dist, 'src', 'sync-runner.js'))}';
  const opts = ${opts};
  let threads = 0;
  opts.progress = (e) => { const m = e.type === 'message' && / \\((\\d+) worker threads?\\)$/.exec(e.text); if (m) threads = Math.max(threads, Number(m[1])); };
  const t0 = performance.now();
  const r = await syncDataset('accounts', opts);
  console.log(JSON.stringify({ s: (performance.now() - t0) / 1000, status: r.status, mode: r.mode, loaded: r.rows_loaded, rejected: r.rows_rejected, total: r.rows_total, threads, rss: Math.round(process.resourceUsage().maxRSS / 1024), cpu: (process.cpuUsage().user + process.cpuUsage().system) / 1e6 }));`;
const THREADS = availableParallelism();
if (PARTS.has('c')) {
  const zip = await dailyZip();
  const mirrorDir = join(work, 'mirror-c');
  rmSync(mirrorDir, { recursive: true, force: true });
  const res = runNode(syncCode(`{ from: '${zip}', mirrorDir: '${mirrorDir}', cacheDir: '${join(work, 'cache')}', env: {} }`));
  log(`(c) ${JSON.stringify(res)}; zip ${(statSync(zip).size / 1e6).toFixed(1)} MB`);
  if (res.threads !== THREADS) throw new Error(`(c) ran with ${res.threads} workers, not ${THREADS}`);
  const pass = res.s <= 60 && res.loaded === DOCS;
  console.log(`accounts sync of a generated daily zip (${DOCS.toLocaleString('en-GB')} documents, ${res.threads} workers): ${res.s.toFixed(1)} s | ${res.loaded} filings, ${res.rejected} rejected, peak RSS ${res.rss} MB, CPU ${res.cpu.toFixed(1)} s (process, all threads) | target <= 60 s | ${pass ? 'PASS' : 'FAIL'}`);
  if (!pass) process.exitCode = 1;
}

// ------------------------------------------------------------------------------------------------
// (d) 30-day load through discovery, then one incremental daily zip

if (PARTS.has('d')) {
  const upstream = join(work, `upstream-${DAILY}`);
  const dayName = (d) => `Accounts_Bulk_Data-${d}.zip`;
  const days = Array.from({ length: 31 }, (_, i) => new Date(Date.UTC(2026, 9, 22 + i)).toISOString().slice(0, 10)); // 2026-10-22 .. 2026-11-21
  mkdirSync(upstream, { recursive: true });
  for (const [k, d] of days.entries()) {
    const p = join(upstream, dayName(d));
    if (existsSync(p) && existsSync(`${p}.n`) && readFileSync(`${p}.n`, 'utf8') === String(DAILY)) continue;
    await zipOf(Array.from({ length: DAILY }, (_, i) => doc(100000 + k * DAILY + i)), p);
    writeFileSync(`${p}.n`, String(DAILY));
  }
  let listed = days.slice(0, 30);
  const server = createServer((req, res) => {
    const path = decodeURIComponent(req.url.split('?')[0]);
    if (path.endsWith('/en_accountsdata.html')) {
      res.writeHead(200, { 'content-type': 'text/html' }).end(listed.map((d) => `<a href="${dayName(d)}">${dayName(d)}</a> (1Mb)<br>`).join('\n'));
      return;
    }
    const f = join(upstream, path.split('/').pop());
    if (!existsSync(f)) return res.writeHead(404).end();
    const body = readFileSync(f);
    res.writeHead(200, { 'content-length': body.length, 'content-type': 'application/zip' }).end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}`;
  {
    const mirrorDir = join(work, 'mirror-d');
    const cacheDir = join(work, 'cache-d');
    const env = { PUBLICDATA_UPSTREAM_ACCOUNTS: base };
    const opts = (now) => `{ mirrorDir: '${mirrorDir}', cacheDir: '${cacheDir}', env: ${JSON.stringify(env)}, days: 30, now: () => new Date('${now}T12:00:00Z') }`;
    const fulls = [];
    const incs = [];
    const fullCpu = [];
    const incCpu = [];
    let incThreads = 0;
    for (let i = 0; i < LOAD_PAIRS; i++) {
      rmSync(mirrorDir, { recursive: true, force: true });
      rmSync(cacheDir, { recursive: true, force: true });
      listed = days.slice(0, 30);
      const full = await runNodeAsync(syncCode(opts('2026-11-20')), {});
      listed = days;
      const inc = await runNodeAsync(syncCode(opts('2026-11-21')), {});
      if (full.mode !== 'full' || inc.mode !== 'incremental' || inc.loaded !== DAILY) throw new Error(`unexpected: ${JSON.stringify({ full, inc })}`);
      if (full.threads !== THREADS || !inc.threads) throw new Error(`(d) ran with ${full.threads}/${inc.threads} workers (expected ${THREADS} for the 30-day load)`);
      incThreads = inc.threads;
      log(`(d) 30-day load ${JSON.stringify(full)}; incremental ${JSON.stringify(inc)}`);
      fulls.push(full.s);
      incs.push(inc.s);
      fullCpu.push(full.cpu);
      incCpu.push(inc.cpu);
    }
    pairLine({ measure: `accounts incremental daily zip (${DAILY} documents, ${incThreads} worker${incThreads === 1 ? '' : 's'}, CPU ${cpuMedian(incCpu)} s)`, unit: 's', what: `30-day load (30 x ${DAILY} documents, discovery + download + load, CPU ${cpuMedian(fullCpu)} s)`, target: 0.1, a: incs, b: fulls, ratios: incs.map((x, i) => x / fulls[i]) });
  }
  server.close();
}

/** runNode without blocking this process's event loop (the HTTP server above answers the child). */
function runNodeAsync(code, env) {
  return import('node:child_process').then(({ spawn }) => new Promise((resolve, reject) => {
    const c = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: repo, env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    c.stdout.on('data', (d) => (out += d));
    c.stderr.on('data', (d) => (err += d));
    c.on('exit', (code2) => (code2 === 0 ? resolve(JSON.parse(out.trim().split('\n').pop())) : reject(new Error(err.slice(0, 2000)))));
  }));
}

// ------------------------------------------------------------------------------------------------
// (e) per-company routes and the sector benchmark as processes vs open mirror + SELECT 1

if (PARTS.has('e')) {
  const mirrorDir = join(work, 'mirror-c'); // from (c)
  // register stand-in (the companies dataset's columns) for the sector: each bench company gets a SIC code
  const reg = join(mirrorDir, 'companies.duckdb');
  rmSync(reg, { force: true });
  runNode(`
    import { DuckDBInstance } from '@duckdb/node-api';
    const inst = await DuckDBInstance.create('${reg}');
    const c = await inst.connect();
    await c.run(\`CREATE TABLE companies AS SELECT (20000000 + i)::VARCHAR AS company_number, 'BENCH COMPANY ' || i || ' LIMITED' AS company_name,
      'active' AS company_status, 'ltd' AS company_type, DATE '2015-01-01' AS incorporation_date,
      [(['${SICS.join("','")}'])[1 + i % ${SICS.length}]] AS sic_codes, [(['${SICS.join("','")}'])[1 + i % ${SICS.length}] || ' - Bench sector'] AS sic_texts
      FROM range(${DOCS}) t(i) ORDER BY company_number\`);
    c.closeSync(); inst.closeSync();
    console.log('{}');`);
  const env = { PUBLICDATA_DATA_DIR: work, PUBLICDATA_CACHE_DIR: join(work, 'cache'), NO_COLOR: '1' };
  // the CLI's mirror is <data dir>/mirror
  rmSync(join(work, 'mirror'), { recursive: true, force: true });
  mkdirSync(join(work, 'mirror'), { recursive: true });
  for (const f of readdirSync(mirrorDir)) if (f.endsWith('.duckdb')) writeFileSync(join(work, 'mirror', f), readFileSync(join(mirrorDir, f)));
  const binRel = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).bin.publicdata;
  const cli = join(repo, binRel);
  const baseline = join(work, 'select1.mjs');
  writeFileSync(baseline, `
    import { openDataset, query } from '${url(join(dist, 'src', 'mirror', 'db.js'))}';
    import { ACCOUNTS_INFO } from '${url(join(dist, 'src', 'domains', 'companies', 'datasets.js'))}';
    const conn = await openDataset(ACCOUNTS_INFO, '${join(work, 'mirror')}');
    process.stdout.write(JSON.stringify(await query(conn, 'SELECT 1 AS one')) + '\\n');`);
  const n = String(20000000 + 3); // a generated full-accounts company
  const cases = [
    ['financials', ['companies', 'financials', n], 1.5],
    ['trends', ['companies', 'trends', n], 1.5],
    ['health', ['companies', 'health', n], 1.5],
    ['benchmarks', ['companies', 'benchmarks', SICS[3]], 2],
  ];
  for (const [what, args, target] of cases) {
    const full = [cli, ...args, '--source', 'local', '--format', 'json'];
    const probe = await timeChild(full, { env, cwd: repo });
    const body = JSON.parse(probe.out);
    if (!body.data) throw new Error(`${what}: ${probe.out.slice(0, 500)}`);
    const r = await paired(10, async () => (await timeChild(full, { env, cwd: repo })).ms, async () => (await timeChild([baseline], { env, cwd: repo })).ms);
    pairLine({ measure: `publicdata ${args.join(' ')} --source local process (median of 10)`, unit: 'ms', what: 'node process opening the mirror + SELECT 1', target, ...r });
  }
}
