#!/usr/bin/env node
/**
 * Streaming output at mirror scale (issue 10 item 7, issue 28). Needs `npm run build`.
 *
 *  (1) `publicdata sql "SELECT * FROM price_paid" --format ndjson > /dev/null`, rows/s and peak RSS, vs
 *      DuckDB's own `COPY (SELECT * FROM price_paid) TO '<file>' (FORMAT json)` in a node process, on the
 *      price-paid bench mirror (bench/.work/mirror, built by bench/property-price-paid.bench.mjs with the same
 *      BENCH_PP_ROWS); skipped (said on stderr) when that mirror is missing.
 *      Target: >= 0.5x the COPY rate, peak RSS < 1 GB.
 *  (2) `property price-paid search --town "TOWN 0" --all --format ndjson --source local > /dev/null` rows/s
 *      vs `publicdata sql` exporting the same rows (same WHERE and ORDER BY) to ndjson. Target >= 0.5x.
 *      On a mirror of its own (bench/.work/sql-stream-mirror, loaded through `sync price-paid --from`)
 *      from BENCH_SQL_ROWS generated rows (default 1,500,000) where one town in 12 is 'TOWN 0', so the
 *      town has >= 100,000 sales (issue 28: at 25,681 rows process start-up hid the per-row cost).
 * Rates count whole processes (start-up included), alternated A B A B (bench/lib/pairs.mjs).
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { paired, pairLine } from './lib/pairs.mjs';
import { runNode } from './lib/child.mjs';
import { generateCode } from './lib/pp-gen.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const work = join(here, '.work');
const mirror = join(work, 'mirror');
const PAIRS = Number(process.env.BENCH_SQL_PAIRS ?? 3);
const THREADS = process.env.BENCH_THREADS ?? '2';
const SQL_ROWS = Number(process.env.BENCH_SQL_ROWS ?? 1_500_000);
const BIG_TOWN = 12;
const log = (...a) => console.error('[sql-stream bench]', ...a);

if (!existsSync(join(repo, 'dist', 'sync', 'framework.js'))) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}
mkdirSync(join(work, 'cache'), { recursive: true });
const envFor = (dataDir) => ({ ...process.env, PUBLICDATA_DATA_DIR: dataDir, PUBLICDATA_CACHE_DIR: join(work, 'cache'), NO_COLOR: '1' });
const cli = join(repo, JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).bin.publicdata);

// Peak RSS of a child: a preload prints process.resourceUsage().maxRSS on stderr at exit.
const preload = join(work, 'maxrss.cjs');
writeFileSync(preload, "process.on('exit', () => require('node:fs').writeSync(2, `\\nMAXRSS_KB ${process.resourceUsage().maxRSS}\\n`));\n");

/** Run node with args (data directory `dataDir`), stdout to /dev/null; resolves {s, rssMB}. */
function run(args, dataDir = work) {
  return new Promise((resolve, reject) => {
    const nul = openSync('/dev/null', 'w');
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, ['-r', preload, ...args], { cwd: repo, env: envFor(dataDir), stdio: ['ignore', nul, 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      closeSync(nul);
      const s = Number(process.hrtime.bigint() - t0) / 1e9;
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}: ${err.slice(0, 2000)}`));
      resolve({ s, rssMB: Math.round(Number(/MAXRSS_KB (\d+)/.exec(err)?.[1] ?? 0) / 1024) });
    });
  });
}

function duckScalar(file, sql) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', `
    import { DuckDBInstance } from '@duckdb/node-api';
    const db = await DuckDBInstance.create(${JSON.stringify(file)}, { access_mode: 'READ_ONLY' });
    const c = await db.connect();
    const rows = (await c.runAndReadAll(${JSON.stringify(sql)})).getRowObjectsJson();
    console.log(JSON.stringify(rows[0]));`], { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim());
}

// (1) sql export vs COPY, on the price-paid bench mirror
if (!existsSync(join(mirror, 'price_paid.duckdb'))) {
  log('(1) skipped: bench/.work/mirror/price_paid.duckdb is missing (run bench/property-price-paid.bench.mjs first, same BENCH_PP_ROWS)');
} else {
  const total = Number(duckScalar(join(mirror, 'price_paid.duckdb'), 'SELECT count(*) AS n FROM price_paid').n);
  log(`(1) mirror: ${total.toLocaleString('en-GB')} rows`);
  const copyOut = join(work, 'copy-out.json');
  const copyScript = join(work, 'copy-json.mjs');
  writeFileSync(copyScript, `
    import { DuckDBInstance } from '@duckdb/node-api';
    const db = await DuckDBInstance.create(${JSON.stringify(join(mirror, 'price_paid.duckdb'))}, { access_mode: 'READ_ONLY' });
    const c = await db.connect();
    await c.run(\`COPY (SELECT * FROM price_paid) TO '${copyOut}' (FORMAT json)\`);`);
  const sqlRss = [];
  const one = await paired(
    PAIRS,
    async () => {
      const r = await run([cli, 'sql', 'SELECT * FROM price_paid', '--format', 'ndjson']);
      sqlRss.push(r.rssMB);
      return total / r.s;
    },
    async () => {
      const r = await run([copyScript]);
      rmSync(copyOut, { force: true });
      return total / r.s;
    },
    { warmup: 1 },
  );
  const peak = Math.max(...sqlRss);
  pairLine({
    measure: `sql "SELECT * FROM price_paid" --format ndjson, ${total.toLocaleString('en-GB')} rows (peak RSS ${peak} MB)`,
    unit: 'rows/s', what: 'DuckDB COPY (SELECT * FROM price_paid) TO file (FORMAT json)', target: 0.5, cmp: '>=',
    extraTarget: 'peak RSS < 1024 MB', extraPass: peak < 1024, decimals: 2, ...one,
  });
}

// (2) --all vs sql of the same rows, on a mirror of its own where one town has research scale
const townData = join(work, `sql-stream-${SQL_ROWS}`);
const townFile = join(townData, 'mirror', 'price_paid.duckdb');
if (!existsSync(townFile)) {
  const csv = join(work, `pp-town-${SQL_ROWS}.csv`);
  if (!existsSync(csv)) {
    log(`generating ${SQL_ROWS.toLocaleString('en-GB')} rows (1 in ${BIG_TOWN} in TOWN 0) → ${csv}`);
    runNode(generateCode({ rows: SQL_ROWS, path: `${csv}.tmp`, threads: THREADS, bigTown: BIG_TOWN }));
    renameSync(`${csv}.tmp`, csv);
  }
  log('loading it through sync price-paid --from');
  runNode(`
    import { syncDataset } from ${JSON.stringify(pathToFileURL(join(repo, 'dist', 'src', 'sync-runner.js')).href)};
    const r = await syncDataset('price-paid', { from: ${JSON.stringify(csv)}, mirrorDir: ${JSON.stringify(join(townData, 'mirror'))}, cacheDir: ${JSON.stringify(join(work, 'cache'))}, env: {}, threads: ${THREADS} });
    console.log(JSON.stringify({ rows: r.rows_total }));`);
}
const townTotal = Number(duckScalar(townFile, 'SELECT count(*) AS n FROM price_paid').n);
const town = 'TOWN 0';
const townRows = Number(duckScalar(townFile, `SELECT count(*) AS n FROM price_paid WHERE town = '${town}'`).n);
log(`(2) mirror: ${townTotal.toLocaleString('en-GB')} rows; --all town ${town}: ${townRows.toLocaleString('en-GB')} rows`);
if (townRows < 100_000) log(`(2) the town has fewer than 100,000 rows: raise BENCH_SQL_ROWS`);
const allRss = [];
const two = await paired(
  PAIRS,
  async () => {
    const r = await run([cli, 'property', 'price-paid', 'search', '--town', town, '--all', '--format', 'ndjson', '--source', 'local'], townData);
    allRss.push(r.rssMB);
    return townRows / r.s;
  },
  async () => townRows / (await run([cli, 'sql', `SELECT * FROM price_paid WHERE town = '${town}' ORDER BY date DESC, id`, '--format', 'ndjson'], townData)).s,
  { warmup: 1 },
);
pairLine({
  measure: `price-paid search --town "${town}" --all --format ndjson --source local, ${townRows.toLocaleString('en-GB')} of ${townTotal.toLocaleString('en-GB')} rows (peak RSS ${Math.max(...allRss)} MB)`,
  unit: 'rows/s', what: 'sql export of the same rows (same WHERE, ORDER BY) to ndjson', target: 0.5, cmp: '>=', ...two,
});
