#!/usr/bin/env node
/**
 * Price-paid mirror benchmarks (imports from dist/: run `npm run build` first).
 *
 *  (a) full load through the sync path (`sync price-paid --from <file>`: sha256, read_csv, typed casts,
 *      rejects, sort on postcode, verify, checkpoint, atomic rename) vs a bare DuckDB
 *      `CREATE TABLE t AS SELECT * FROM read_csv(file)` of the same file, run in pairs (BENCH_LOAD_PAIRS). Target <= 2x.
 *  (b) `property price-paid search --postcode "LS8 3BS"` as a process vs a node process that only opens
 *      the mirror and runs SELECT 1, 10 pairs. Target <= 1.5x.
 *  (c) applying a 100,000-row monthly update (A/C/D) vs the full load. Target < 10%.
 *
 * Input: a file in the real format (headerless, 16 quoted columns, `{GUID}` ids, `YYYY-MM-DD 00:00` dates)
 * generated with DuckDB: BENCH_PP_ROWS rows (default 30,000,000), cached in bench/.work/.
 * Each measure runs in its own child process so peak RSS is per measure.
 * stdout: one line per measure (bench/README.md format); details on stderr.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LOAD_PAIRS, paired, pairLine, stats, timeProcess as timeChild } from './lib/pairs.mjs';
import { bareLoad, RSS, runNode } from './lib/child.mjs';
import { generateCode, ROW, WITH_H } from './lib/pp-gen.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const work = join(here, '.work');
const dist = join(repo, 'dist');
const ROWS = Number(process.env.BENCH_PP_ROWS ?? 30_000_000);
const UPDATE_ROWS = 100_000;
const THREADS = process.env.BENCH_THREADS ?? '2';
mkdirSync(work, { recursive: true });

const log = (...a) => console.error('[price-paid bench]', ...a);
const fmt = (n, d = 2) => Number(n).toFixed(d);
const url = (p) => pathToFileURL(p).href;

if (!existsSync(join(dist, 'sync', 'framework.js'))) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}

/** Run a node ESM snippet in a child; it must print one JSON line last. Returns {result, ms, rssMB}. */


// ------------------------------------------------------------------------------------------------
// Input files (deterministic ids md5(i) so the update can change and delete existing transactions).
const csv = join(work, `pp-${ROWS}.csv`);
const upd = join(work, `pp-monthly-update-${ROWS}-${UPDATE_ROWS}.csv`);

function generate() {
  if (!existsSync(csv)) {
    log(`generating ${ROWS.toLocaleString('en-GB')} rows → ${csv}`);
    const tmp = `${csv}.tmp`;
    const { ms } = runNode(generateCode({ rows: ROWS, path: tmp, threads: THREADS }));
    renameSync(tmp, csv);
    log(`generated in ${fmt(ms / 1000, 1)} s, ${fmt(statSync(csv).size / 1e9)} GB`);
  }
  if (!existsSync(upd)) {
    // 60% additions (new ids), 30% changes (price of existing ids), 10% deletions (existing ids).
    const a = Math.round(UPDATE_ROWS * 0.6);
    const c = Math.round(UPDATE_ROWS * 0.3);
    const d = UPDATE_ROWS - a - c;
    const tmp = `${upd}.tmp`;
    runNode(`
      import { DuckDBInstance } from '@duckdb/node-api';
      const db = await DuckDBInstance.create(':memory:', { threads: '${THREADS}' });
      const conn = await db.connect();
      await conn.run(\`COPY (
        SELECT ${ROW('i', "'A'")} FROM ${WITH_H(`range(${ROWS}, ${ROWS + a}) t(i)`)}
        UNION ALL SELECT * REPLACE ((price::BIGINT + 1000)::VARCHAR AS price) FROM (SELECT ${ROW('i', "'C'")} FROM ${WITH_H(`(SELECT (hash(j) % ${ROWS})::BIGINT AS i FROM range(${c}) r(j))`)})
        UNION ALL SELECT ${ROW('i', "'D'")} FROM ${WITH_H(`(SELECT (hash(j + 99991) % ${ROWS})::BIGINT AS i FROM range(${d}) r(j))`)}
      ) TO '${tmp}' (FORMAT csv, HEADER false, FORCE_QUOTE *)\`);
      console.log('{}');`);
    renameSync(tmp, upd);
    log(`generated update file: ${a} A, ${c} C, ${d} D`);
  }
}

// ------------------------------------------------------------------------------------------------
function bareCsvLoad() {
  return bareLoad({ db: join(work, 'bare.duckdb'), from: `read_csv('${csv}')`, threads: THREADS });
}

const mirrorDir = join(work, 'mirror');
const cacheDir = join(work, 'cache');

function syncLoad(from) {
  const { result } = runNode(`
    import { syncDataset } from '${url(join(dist, 'src', 'sync-runner.js'))}';
    ${RSS}
    const t0 = performance.now();
    const r = await syncDataset('price-paid', { from: '${from}', mirrorDir: '${mirrorDir}', cacheDir: '${cacheDir}', env: {}, threads: ${THREADS} });
    console.log(JSON.stringify({ s: (performance.now() - t0) / 1000, rows: r.rows_total, loaded: r.rows_loaded, rejected: r.rows_rejected, mode: r.mode, rss: __rss() }));`);
  return result;
}

const timeProcess = (args, env) => timeChild(args, { env, cwd: repo });

async function searchBench() {
  const env = { PUBLICDATA_DATA_DIR: work, PUBLICDATA_CACHE_DIR: cacheDir, NO_COLOR: '1' };
  // The search: the real CLI when it answers locally, else the handler through callLocal in a process.
  const binRel = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).bin?.publicdata ?? 'bin/publicdata.js';
  const cli = join(repo, binRel);
  let searchArgs = [cli, 'property', 'price-paid', 'search', '--postcode', 'LS8 3BS', '--source', 'local', '--format', 'json'];
  let how = `${binRel} property price-paid search --postcode "LS8 3BS" --source local`;
  try {
    const probe = await timeProcess(searchArgs, env);
    const body = JSON.parse(probe.out);
    if (!body?.data?.transactions) throw new Error('unexpected output');
  } catch (e) {
    log(`CLI not usable for (b) (${String(e.message).split('\n')[0].slice(0, 200)}); timing the handler through callLocal`);
    const script = join(work, 'search.mjs');
    writeFileSync(script, `
      import { callLocal } from '${url(join(dist, 'src', 'backends', 'local.js'))}';
      const r = await callLocal({ method: 'GET', path: '/v1/property/price-paid/search', query: { postcode: 'LS8 3BS' } },
        { now: () => new Date(), env: process.env, mirrorDir: '${mirrorDir}', cacheDir: '${cacheDir}' });
      process.stdout.write(JSON.stringify(r.envelope) + '\\n');`);
    searchArgs = [script];
    how = 'node script: callLocal property.price-paid.search postcode=LS8 3BS';
  }
  const base = join(work, 'select1.mjs');
  writeFileSync(base, `
    import { openDataset, query } from '${url(join(dist, 'src', 'mirror', 'db.js'))}';
    import { PRICE_PAID_INFO } from '${url(join(dist, 'src', 'domains', 'property', 'datasets.js'))}';
    const conn = await openDataset(PRICE_PAID_INFO, '${mirrorDir}');
    const r = await query(conn, 'SELECT 1 AS one');
    process.stdout.write(JSON.stringify(r) + '\\n');`);
  const first = await timeProcess(searchArgs, env);
  const total = JSON.parse(first.out).data.pagination.total;
  const r = await paired(10, async () => (await timeProcess(searchArgs, env)).ms, async () => (await timeProcess([base], env)).ms);
  return { how, total, ...r };
}

// ------------------------------------------------------------------------------------------------
generate();
log(`input ${fmt(statSync(csv).size / 1e9)} GB, ${ROWS.toLocaleString('en-GB')} rows, threads ${THREADS}`);

// Loads in pairs (BENCH_LOAD_PAIRS, default 3): the bare read_csv, then the sync of the same file.
const bares = [];
const fulls = [];
const loads = await paired(
  LOAD_PAIRS,
  () => {
    rmSync(mirrorDir, { recursive: true, force: true });
    const f = syncLoad(csv);
    fulls.push(f);
    log(`sync full load: ${fmt(f.s)} s, ${f.rows} rows (${f.rejected} rejected), peak RSS ${f.rss} MB`);
    return f.s;
  },
  () => {
    const b = bareCsvLoad();
    bares.push(b);
    log(`bare read_csv: ${fmt(b.s)} s, ${b.rows} rows, peak RSS ${b.rss} MB`);
    return b.s;
  },
);
const peak = (xs) => Math.max(...xs.map((x) => x.rss));
const size = statSync(join(mirrorDir, 'price_paid.duckdb')).size;
log(`mirror file ${fmt(size / 1e9)} GB`);
pairLine({ minPairs: 3,
  measure: `price-paid full load via sync (${(ROWS / 1e6).toFixed(ROWS % 1e6 ? 1 : 0)}M rows, peak RSS ${peak(fulls)} MB)`,
  unit: 's',
  what: `bare DuckDB read_csv into a table (peak RSS ${peak(bares)} MB)`,
  target: 2,
  ...loads,
});

const sb = await searchBench();
log(`search (${sb.how}): ${sb.total} transactions`);
pairLine({ measure: 'price-paid search --postcode "LS8 3BS" process (median of 10)', unit: 'ms', what: 'node process opening the mirror + SELECT 1 (median of 10)', target: 1.5, ...sb });

const up = syncLoad(upd);
log(`update: ${fmt(up.s)} s, mode ${up.mode}, ${up.loaded} update rows applied, ${up.rows} rows after, peak RSS ${up.rss} MB`);
const fullMedian = stats(loads.a).median;
pairLine({ measure: `price-paid monthly update of ${UPDATE_ROWS.toLocaleString('en-GB')} rows (peak RSS ${up.rss} MB)`, unit: 's', what: 'full load via sync (median)', target: 0.1, cmp: '<', a: [up.s], b: [fullMedian], ratios: [up.s / fullMedian] });
