#!/usr/bin/env node
/**
 * Streaming output at mirror scale (issue 10 item 7). Needs the price-paid bench mirror
 * (bench/.work/mirror, built by bench/price-paid.bench.mjs with the same BENCH_PP_ROWS) and `npm run build`.
 *
 *  (1) `publicdata sql "SELECT * FROM price_paid" --format ndjson > /dev/null`, rows/s and peak RSS, vs
 *      DuckDB's own `COPY (SELECT * FROM price_paid) TO '<file>' (FORMAT json)` in a node process.
 *      Target: >= 0.5x the COPY rate, peak RSS < 1 GB.
 *  (2) `property price-paid search --town <town> --all --format ndjson --source local > /dev/null` rows/s
 *      vs `publicdata sql` exporting the same rows (same WHERE and ORDER BY) to ndjson. Target >= 0.5x.
 *      (The full-table export rate of (1) is printed on stderr beside it: a town is 1/1,200 of the
 *      generated rows, so --all scans the table for few rows and its rate per output row is lower.)
 * Rates count whole processes (start-up included), alternated A B A B (bench/lib/pairs.mjs).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { paired, pairLine } from './lib/pairs.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const work = join(here, '.work');
const mirror = join(work, 'mirror');
const PAIRS = Number(process.env.BENCH_SQL_PAIRS ?? 3);
const log = (...a) => console.error('[sql-stream bench]', ...a);

if (!existsSync(join(mirror, 'price_paid.duckdb'))) {
  console.error('bench/.work/mirror/price_paid.duckdb is missing: run bench/price-paid.bench.mjs first (same BENCH_PP_ROWS)');
  process.exit(1);
}
mkdirSync(join(work, 'cache'), { recursive: true });
const env = { ...process.env, PUBLICDATA_DATA_DIR: work, PUBLICDATA_CACHE_DIR: join(work, 'cache'), NO_COLOR: '1' };
const cli = join(repo, JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).bin.publicdata);

// Peak RSS of a child: a preload prints process.resourceUsage().maxRSS on stderr at exit.
const preload = join(work, 'maxrss.cjs');
writeFileSync(preload, "process.on('exit', () => require('node:fs').writeSync(2, `\\nMAXRSS_KB ${process.resourceUsage().maxRSS}\\n`));\n");

/** Run node with args, stdout to /dev/null; resolves {s, rssMB}. */
function run(args) {
  return new Promise((resolve, reject) => {
    const nul = openSync('/dev/null', 'w');
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, ['-r', preload, ...args], { cwd: repo, env, stdio: ['ignore', nul, 'pipe'] });
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

function duckScalar(sql) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', `
    import { DuckDBInstance } from '@duckdb/node-api';
    const db = await DuckDBInstance.create(${JSON.stringify(join(mirror, 'price_paid.duckdb'))}, { access_mode: 'READ_ONLY' });
    const c = await db.connect();
    const rows = (await c.runAndReadAll(${JSON.stringify(sql)})).getRowObjectsJson();
    console.log(JSON.stringify(rows[0]));`], { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim());
}

const total = Number(duckScalar('SELECT count(*) AS n FROM price_paid').n);
const { town, n: townRows } = duckScalar('SELECT town, count(*) AS n FROM price_paid GROUP BY town ORDER BY n DESC, town LIMIT 1');
log(`mirror: ${total.toLocaleString('en-GB')} rows; --all town ${town}: ${Number(townRows).toLocaleString('en-GB')} rows`);

const copyOut = join(work, 'copy-out.json');
const copyScript = join(work, 'copy-json.mjs');
writeFileSync(copyScript, `
  import { DuckDBInstance } from '@duckdb/node-api';
  const db = await DuckDBInstance.create(${JSON.stringify(join(mirror, 'price_paid.duckdb'))}, { access_mode: 'READ_ONLY' });
  const c = await db.connect();
  await c.run(\`COPY (SELECT * FROM price_paid) TO '${copyOut}' (FORMAT json)\`);`);

// (1) sql export vs COPY
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

// (2) --all vs sql of the same rows
const allRss = [];
const esc = String(town).replace(/'/g, "''");
const two = await paired(
  PAIRS,
  async () => {
    const r = await run([cli, 'property', 'price-paid', 'search', '--town', town, '--all', '--format', 'ndjson', '--source', 'local']);
    allRss.push(r.rssMB);
    return townRows / r.s;
  },
  async () => (townRows / (await run([cli, 'sql', `SELECT * FROM price_paid WHERE town = '${esc}' ORDER BY date DESC, id`, '--format', 'ndjson'])).s),
  { warmup: 1 },
);
log(`--all rate vs the full-table sql export rate of (1): ${(Math.min(...two.a) / Math.max(...one.a)).toFixed(3)}x to ${(Math.max(...two.a) / Math.min(...one.a)).toFixed(3)}x (different row counts; start-up dominates at small scale)`);
pairLine({
  measure: `price-paid search --town "${town}" --all --format ndjson --source local, ${Number(townRows).toLocaleString('en-GB')} rows (peak RSS ${Math.max(...allRss)} MB)`,
  unit: 'rows/s', what: 'sql export of the same rows (same WHERE, ORDER BY) to ndjson', target: 0.5, cmp: '>=', ...two,
});
