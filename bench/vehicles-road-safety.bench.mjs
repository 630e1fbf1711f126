#!/usr/bin/env node
/**
 * Road-safety (STATS19) mirror benchmarks (imports from dist/: run `npm run build` first).
 *
 *  (a) five years loaded through the sync path (`sync road-safety --from <folder>`: sha256, header alias
 *      map, typed casts, labels joined from the code list, sort on collision_index, verify, checkpoint,
 *      atomic rename) vs bare DuckDB `CREATE TABLE t AS SELECT * FROM read_csv(file)` of the same 15 files,
 *      in pairs (BENCH_LOAD_PAIRS, default 3). Target <= 2x.
 *  (b) `publicdata vehicles collisions <index>` as a process vs a node process that only opens the mirror
 *      and runs SELECT 1, 10 pairs. Target <= 1.5x.
 *
 * Input: 15 files in the republished layout (44 / 32 / 23 columns, dd/mm/yyyy dates, HH:MM times,
 * string indexes) generated with DuckDB: BENCH_RS_COLLISIONS collisions a year (default 100,000, about a
 * real year; vehicles 2 and casualties 1.3 per collision), cached in bench/.work/.
 * stdout: one line per measure (bench/README.md format); details on stderr.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LOAD_PAIRS, paired, pairLine, timeProcess as timeChild } from './lib/pairs.mjs';
import { RSS, runNode } from './lib/child.mjs';
import { generateStats19 } from './lib/stats19-gen.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const work = join(here, '.work');
const dist = join(repo, 'dist');
const PER_YEAR = Number(process.env.BENCH_RS_COLLISIONS ?? 100_000);
const YEARS = [2020, 2021, 2022, 2023, 2024];
const THREADS = process.env.BENCH_THREADS ?? '2';
const log = (...a) => console.error('[road-safety bench]', ...a);
const fmt = (n, d = 2) => Number(n).toFixed(d);
const url = (p) => pathToFileURL(p).href;

if (!existsSync(join(dist, 'src', 'domains', 'vehicles', 'sync', 'road-safety.js'))) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}


// ------------------------------------------------------------------------------------------------
const input = join(work, `stats19-${PER_YEAR}`);

const generate = () => generateStats19({ input, perYear: PER_YEAR, years: YEARS, threads: THREADS, dist, log });

function bareLoad(files) {
  const db = join(work, 'rs-bare.duckdb');
  rmSync(db, { force: true });
  rmSync(`${db}.wal`, { force: true });
  const { result } = runNode(`
    import { DuckDBInstance } from '@duckdb/node-api';
    ${RSS}
    const t0 = performance.now();
    const db = await DuckDBInstance.create('${db}', { threads: '${THREADS}' });
    const c = await db.connect();
    const files = ${JSON.stringify(files)};
    for (let i = 0; i < files.length; i++) await c.run(\`CREATE TABLE t\${i} AS SELECT * FROM read_csv('\${files[i]}')\`);
    await c.run('CHECKPOINT');
    c.closeSync(); db.closeSync();
    console.log(JSON.stringify({ s: (performance.now() - t0) / 1000, rss: __rss() }));`);
  rmSync(db, { force: true });
  return result;
}

const mirrorDir = join(work, 'rs-mirror', 'mirror');
const cacheDir = join(work, 'rs-cache');
function syncLoad() {
  const { result } = runNode(`
    import { syncDataset } from '${url(join(dist, 'src', 'sync-runner.js'))}';
    ${RSS}
    const t0 = performance.now();
    const r = await syncDataset('road-safety', { from: ['${input}'], mirrorDir: '${mirrorDir}', cacheDir: '${cacheDir}', env: {}, threads: ${THREADS} });
    console.log(JSON.stringify({ s: (performance.now() - t0) / 1000, rows: r.rows_total, rejected: r.rows_rejected, rss: __rss() }));`);
  return result;
}

// ------------------------------------------------------------------------------------------------
mkdirSync(work, { recursive: true });
await generate();
const files = readdirSync(input).filter((f) => f.endsWith('.csv')).sort().map((f) => join(input, f));
const bytes = files.reduce((s, f) => s + statSync(f).size, 0);
log(`input ${files.length} files, ${fmt(bytes / 1e6, 1)} MB, threads ${THREADS}`);

const peaks = { a: 0, b: 0 };
let rows = 0;
const loads = await paired(
  LOAD_PAIRS,
  () => {
    rmSync(dirname(mirrorDir), { recursive: true, force: true });
    const f = syncLoad();
    peaks.a = Math.max(peaks.a, f.rss);
    rows = f.rows;
    log(`sync: ${fmt(f.s)} s, ${f.rows} rows (${f.rejected} rejected), peak RSS ${f.rss} MB`);
    return f.s;
  },
  () => {
    const b = bareLoad(files);
    peaks.b = Math.max(peaks.b, b.rss);
    log(`bare read_csv x ${files.length}: ${fmt(b.s)} s, peak RSS ${b.rss} MB`);
    return b.s;
  },
);
pairLine({ minPairs: 3,
  measure: `road-safety five years via sync (${(PER_YEAR * YEARS.length).toLocaleString('en-GB')} collisions, ${rows.toLocaleString('en-GB')} rows, peak RSS ${peaks.a} MB)`,
  unit: 's',
  what: `bare DuckDB read_csv of the ${files.length} files into tables (peak RSS ${peaks.b} MB)`,
  target: 2,
  ...loads,
});

// (b) one collision with its vehicles and casualties, through the CLI
const env = { PUBLICDATA_DATA_DIR: dirname(mirrorDir), PUBLICDATA_CACHE_DIR: cacheDir, NO_COLOR: '1' };
const binRel = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).bin.publicdata;
const index = `2022${String(Math.floor(PER_YEAR / 2)).padStart(9, '0')}`;
const args = [join(repo, binRel), 'vehicles', 'collisions', index, '--source', 'local', '--format', 'json'];
const probe = await timeChild(args, { env, cwd: repo });
const body = JSON.parse(probe.out);
if (body?.data?.collision_index !== index) throw new Error(`unexpected answer: ${probe.out.slice(0, 300)}`);
log(`collision ${index}: ${body.data.vehicles.length} vehicles, ${body.data.casualties.length} casualties`);
const base = join(work, 'rs-select1.mjs');
writeFileSync(base, `
  import { openDataset, query } from '${url(join(dist, 'src', 'mirror', 'db.js'))}';
  import { ROAD_SAFETY_INFO } from '${url(join(dist, 'src', 'domains', 'vehicles', 'traffic-datasets.js'))}';
  const conn = await openDataset(ROAD_SAFETY_INFO, '${mirrorDir}');
  const r = await query(conn, 'SELECT 1 AS one');
  process.stdout.write(JSON.stringify(r) + '\\n');`);
const r = await paired(10, async () => (await timeChild(args, { env, cwd: repo })).ms, async () => (await timeChild([base], { env, cwd: repo })).ms, { warmup: 1 });
pairLine({ measure: `vehicles collisions <index> process (median of 10)`, unit: 'ms', what: 'node process opening the mirror + SELECT 1 (median of 10)', target: 1.5, ...r });
