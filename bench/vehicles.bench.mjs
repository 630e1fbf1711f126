#!/usr/bin/env node
/**
 * Vehicle licensing and MOT mirror benchmarks (imports from dist/: run `npm run build` first).
 *
 *  (a) vehicle-licensing load (`sync vehicle-licensing --from df_VEH0120_GB.csv`: header check, UNPIVOT of
 *      the quarter columns, marker/zero filter, rejects, makes and coverage tables, verify, checkpoint,
 *      rename) vs a bare DuckDB `CREATE TABLE t AS SELECT * FROM read_csv(file)` of the same wide file, in
 *      pairs (BENCH_LOAD_PAIRS, default 3). Target <= 4x. Input: VEH0120_GB at full width (85 quarter
 *      columns, 2026 Q1 back to 1994 Q4), BENCH_VEH_ROWS wide rows (default 245,043, the real file's count).
 *  (b) mot, one test year at BENCH_MOT_SCALE of 2025's size (default 0.1: ~4.3M results, ~9.2M items) in the
 *      2025 layout (comma, 15 columns, backslash-escaped quotes): the whole sync from the two member CSVs
 *      plus the lookups (typed load, sort, pass-rate and failure aggregates, verify) vs bare read_csv of the
 *      two files into tables, in pairs (BENCH_MOT_PAIRS, default 1). Target <= 4x; peak RSS of the sync
 *      must stay under DuckDB's memory limit for the load + 1 GB (both printed).
 *  (c) `vehicles licensing --make FO` (a make-prefix page), `vehicles mot-pass-rates --make FORD --model FOCUS`
 *      and `vehicles mot-tests --make FORD` (a page), each as a CLI process vs a node process that opens the
 *      same mirror file and runs SELECT 1; 10 pairs each. Target <= 1.5x.
 *
 * Inputs are GENERATED with DuckDB in the publishers' formats (there is no real copy of the VEH files, and
 * the MOT files are 8.6 GB), cached in bench/.work/. stdout: one line per measure; details on stderr.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LOAD_PAIRS, paired, pairLine, timeProcess as timeChild } from './lib/pairs.mjs';
import { RSS, runNode as runChild } from './lib/child.mjs';
const runNode = (code) => runChild(code).result;

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const work = join(here, '.work', 'vehicles');
const dist = join(repo, 'dist');
const VEH_ROWS = Number(process.env.BENCH_VEH_ROWS ?? 245_043);
const MOT_SCALE = Number(process.env.BENCH_MOT_SCALE ?? 0.1);
const MOT_RESULTS = Math.round(42_728_066 * MOT_SCALE);
const MOT_ITEMS = Math.round(92_473_454 * MOT_SCALE);
const THREADS = process.env.BENCH_THREADS ?? '2';
mkdirSync(work, { recursive: true });

const log = (...a) => console.error('[vehicles bench]', ...a);
const fmt = (n, d = 2) => Number(n).toFixed(d);
const url = (p) => pathToFileURL(p).href;

if (!existsSync(join(dist, 'sync', 'framework.js'))) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}

/** Run a node ESM snippet in a child; it must print one JSON line last. */
const duckRun = (sql) =>
  runNode(`
    import { DuckDBInstance } from '@duckdb/node-api';
    const db = await DuckDBInstance.create(':memory:', { threads: '${THREADS}' });
    const c = await db.connect();
    await c.run(${JSON.stringify(sql)});
    console.log('{}');`);

// ------------------------------------------------------------------------------------------------
// Inputs

/** Quarter labels of VEH0120_GB, newest first: every quarter to 2008 Q3, then Q4 only to 1994 Q4. */
function vehQuarters() {
  const out = [];
  for (let y = 2026, q = 1; y > 1994 || (y === 1994 && q >= 4); q === 1 ? ((q = 4), y--) : q--) {
    if ((y < 2008 || (y === 2008 && q < 3)) && q !== 4) continue;
    out.push(`${y} Q${q}`);
  }
  return out;
}

const vehDir = join(work, `veh-${VEH_ROWS}`);
const vehFile = join(vehDir, 'df_VEH0120_GB.csv');
function generateVeh() {
  if (existsSync(vehFile)) return;
  mkdirSync(vehDir, { recursive: true });
  const qs = vehQuarters();
  // ~1,500 makes (FORD and FORDSON among them), models per make, Licensed/SORN pairs, sorted like the
  // publisher's file (body type, make, model); cells: half [z], zeros, blanks, [c]/[x]/[low], counts.
  const cell = (j) =>
    `CASE WHEN h${j % 7} % 1000 < ${300 + j * 5} THEN '[z]' WHEN (h${j % 7} >> 10) % 20 = 0 THEN '0' WHEN (h${j % 7} >> 10) % 20 = 1 THEN ''
      WHEN (h${j % 7} >> 10) % 50 = 2 THEN '[c]' WHEN (h${j % 7} >> 10) % 80 = 3 THEN '[x]' WHEN (h${j % 7} >> 10) % 90 = 4 THEN '[low]'
      ELSE CAST(1 + (h${j % 7} >> ${16 + (j % 20)}) % 5000 AS VARCHAR) END AS "${qs[j]}"`;
  const tmp = `${vehFile}.tmp`;
  duckRun(`COPY (
    SELECT body AS BodyType, make AS Make, make || ' ' || gm AS GenModel, gm || ' ' || variant AS Model, fuel AS Fuel, status AS LicenceStatus,
      ${qs.map((_, j) => cell(j)).join(',\n      ')}
    FROM (
      SELECT *, ${Array.from({ length: 7 }, (_, k) => `hash(i * 7 + ${k}) AS h${k}`).join(', ')} FROM (
        SELECT i // 2 AS k, i,
          ['Cars','Light goods vehicles','Heavy goods vehicles','Motorcycles','Buses and coaches','Other vehicles'][1 + ((i // 2) % 97 % 6)::INT] AS body,
          CASE (i // 2) % 1500 WHEN 0 THEN 'FORD' WHEN 1 THEN 'FORDSON' WHEN 2 THEN 'TESLA' ELSE 'MAKE' || ((i // 2) % 1500)::VARCHAR END AS make,
          'M' || (((i // 2) // 1500) % 40)::VARCHAR AS gm,
          'V' || ((i // 2) // 60000)::VARCHAR AS variant,
          ['PETROL','DIESEL','BATTERY ELECTRIC','HYBRID ELECTRIC (PETROL)'][1 + ((i // 2) % 4)::INT] AS fuel,
          CASE WHEN i % 2 = 0 THEN 'Licensed' ELSE 'SORN' END AS status
        FROM range(${VEH_ROWS}) t(i)
      )
    ) ORDER BY BodyType, Make, GenModel, Model, Fuel, LicenceStatus
  ) TO '${tmp}' (FORMAT csv, HEADER true)`);
  renameSync(tmp, vehFile);
  log(`generated ${VEH_ROWS.toLocaleString('en-GB')} wide rows × ${qs.length} quarters: ${fmt(statSync(vehFile).size / 1e6, 0)} MB`);
}

const motDir = join(work, `mot-${MOT_RESULTS}`);
const motResults = join(motDir, 'dft_test_result_extract_202501.csv');
const motItems = join(motDir, 'dft_test_item_extract_202501.csv');
const itemDetail = join(motDir, 'item_detail.csv');
const itemGroup = join(motDir, 'item_group.csv');
const RFRS = [30305, 30823, 31194, 31043, 30616, 4];
function generateMot() {
  if (existsSync(motItems)) return;
  mkdirSync(motDir, { recursive: true });
  const groups = [];
  const details = [];
  for (const cls of ['4', '7']) {
    groups.push(`0|${cls}|0|1|Vehicle`, `1|${cls}|0|1|Brakes`, `2|${cls}|1|1|Service brake`, `3|${cls}|2|1|Front axle`, `10|${cls}|0|1|Tyres`, `11|${cls}|10|1|Condition`);
    for (const [i, r] of RFRS.entries()) details.push(`${r}|${cls}|${[3, 3, 11, 11, 2, 2][i]}|N|${['Major', 'Dangerous', 'Minor', 'Dangerous', 'Major', 'Pre-EU Directive'][i]}|reason ${r}|N|reason ${r}||1`);
  }
  writeFileSync(itemGroup, ['test_item_id|test_class_id|parent_id|test_item_set_section_id|item_name', ...groups].join('\n') + '\n');
  writeFileSync(itemDetail, ['rfr_id|test_class_id|test_item_id|minor_item|rfr_deficiency_category|rfr_desc|rfr_loc_marker|rfr_insp_manual_desc|rfr_advisory_text|test_item_set_section_id', ...details].join('\n') + '\n');
  const tmp = `${motResults}.tmp`;
  duckRun(`COPY (
    SELECT 500000000 + i AS test_id, hash(i) % 1000000000 AS vehicle_id, DATE '2025-01-01' + (hash(i * 3) % 365)::INT AS test_date,
      CASE WHEN hash(i * 5) % 20 = 0 THEN '7' ELSE '4' END AS test_class_id,
      ['NT','NT','NT','NT','RT','PL'][1 + (hash(i * 7) % 6)::INT] AS test_type,
      ['P','P','P','P','F','F','PRS','ABA'][1 + (hash(i * 11) % 8)::INT] AS test_result,
      CASE WHEN hash(i * 13) % 30 = 0 THEN 0 ELSE 1000 + hash(i * 13) % 200000 END AS test_mileage,
      ['LS','LE','B','NW','XX','E','M','G'][1 + (hash(i * 17) % 8)::INT] AS postcode_area,
      mk AS make,
      CASE mk WHEN 'FORD' THEN ['FOCUS','FIESTA','TRANSIT','KA'][1 + (hash(i * 19) % 4)::INT]
              WHEN 'STREETZONE' THEN 'STREETZONE 50 2T 12"' WHEN 'LAND ROVER' THEN 'SERIES 1, 80 INCH'
              ELSE 'MODEL ' || (hash(i * 19) % 60)::VARCHAR END AS model,
      ['SILVER','BLUE','BLACK','WHITE','RED'][1 + (hash(i * 23) % 5)::INT] AS colour,
      ['PE','DI','HY','EL','ED','LP'][1 + (hash(i * 29) % 6)::INT] AS fuel_type,
      998 + hash(i * 31) % 2000 AS cylinder_capacity,
      CASE WHEN hash(i * 37) % 40 = 0 THEN DATE '1971-01-01' ELSE DATE '1996-01-01' + (hash(i * 37) % 10500)::INT END AS first_use_date,
      strftime(DATE '2025-01-01' + (hash(i * 3) % 365)::INT, '%Y-%m-%d') || ' 10:00:00.000' AS completed_date
    FROM (SELECT i, CASE WHEN hash(i * 41) % 10 = 0 THEN 'FORD' WHEN hash(i * 41) % 1000 = 1 THEN 'STREETZONE' WHEN hash(i * 41) % 1000 = 2 THEN 'LAND ROVER'
                       ELSE 'MAKE ' || (hash(i * 41) % 300)::VARCHAR END AS mk FROM range(${MOT_RESULTS}) t(i))
  ) TO '${tmp}' (FORMAT csv, HEADER true, QUOTE '"', ESCAPE '\\')`);
  renameSync(tmp, motResults);
  const tmpI = `${motItems}.tmp`;
  duckRun(`COPY (
    SELECT 500000000 + hash(j) % ${MOT_RESULTS} AS test_id, [${RFRS.join(',')}][1 + (hash(j * 3) % ${RFRS.length})::INT] AS rfr_id,
      ['F','F','A','M','P'][1 + (hash(j * 5) % 5)::INT] AS rfr_type_code, hash(j * 7) % 200 AS mot_test_rfr_location_type_id,
      CASE WHEN hash(j * 11) % 10 = 0 THEN 'D' ELSE '' END AS dangerous_mark, '2025-01-02 10:00:00.000' AS completed_date
    FROM range(${MOT_ITEMS}) t(j)
  ) TO '${tmpI}' (FORMAT csv, HEADER true, QUOTE '"', ESCAPE '\\')`);
  renameSync(tmpI, motItems);
  log(`generated MOT ${MOT_RESULTS.toLocaleString('en-GB')} results (${fmt(statSync(motResults).size / 1e9)} GB), ${MOT_ITEMS.toLocaleString('en-GB')} items (${fmt(statSync(motItems).size / 1e9)} GB)`);
}

// ------------------------------------------------------------------------------------------------
// Loads

function bare(files, opts) {
  const db = join(work, 'bare.duckdb');
  rmSync(db, { force: true });
  rmSync(`${db}.wal`, { force: true });
  const res = runNode(`
    import { DuckDBInstance } from '@duckdb/node-api';
    ${RSS}
    const t0 = performance.now();
    const db = await DuckDBInstance.create('${db}', { threads: '${THREADS}' });
    const c = await db.connect();
    ${files.map((f, i) => `await c.run(${JSON.stringify(`CREATE TABLE t${i} AS SELECT * FROM read_csv('${f}'${opts})`)});`).join('\n')}
    await c.run('CHECKPOINT');
    c.closeSync(); db.closeSync();
    console.log(JSON.stringify({ s: (performance.now() - t0) / 1000, rss: __rss() }));`);
  rmSync(db, { force: true });
  return res;
}

function sync(dataset, from, mirrorDir) {
  rmSync(mirrorDir, { recursive: true, force: true });
  return runNode(`
    import { syncDataset } from '${url(join(dist, 'src', 'sync-runner.js'))}';
    ${RSS}
    const t0 = performance.now();
    const r = await syncDataset('${dataset}', { from: ${JSON.stringify(from)}, mirrorDir: '${mirrorDir}', cacheDir: '${join(work, 'cache')}', env: {}, threads: ${THREADS} });
    console.log(JSON.stringify({ s: (performance.now() - t0) / 1000, rows: r.rows_total, rejected: r.rows_rejected, rss: __rss() }));`);
}

const vehMirror = join(work, 'data-veh', 'mirror');
const motMirror = join(work, 'data-mot', 'mirror');
const peak = (xs) => Math.max(...xs.map((x) => x.rss));

generateVeh();
{
  const bares = [];
  const fulls = [];
  const r = await paired(
    LOAD_PAIRS,
    () => {
      const f = sync('vehicle-licensing', [vehFile], vehMirror);
      fulls.push(f);
      log(`vehicle-licensing sync: ${fmt(f.s)} s, ${f.rows} long rows (${f.rejected} rejected), peak RSS ${f.rss} MB`);
      return f.s;
    },
    () => {
      const b = bare([vehFile], '');
      bares.push(b);
      log(`bare read_csv: ${fmt(b.s)} s, peak RSS ${b.rss} MB`);
      return b.s;
    },
  );
  pairLine({ minPairs: 3,
    measure: `vehicle-licensing load, VEH0120 GB ${VEH_ROWS.toLocaleString('en-GB')} wide rows × 85 quarters (peak RSS ${peak(fulls)} MB)`,
    unit: 's',
    what: `bare DuckDB read_csv of the same file (peak RSS ${peak(bares)} MB)`,
    target: 4,
    ...r,
  });
}

generateMot();
{
  // The memory limit the sync gives DuckDB for this module ('auto': half the RAM, 1 to 3 GB).
  const gb = Math.max(1, Math.min(3, Math.floor(totalmem() / 2 ** 30 / 2)));
  const limitMB = Number(process.env.PUBLICDATA_SYNC_MEMORY?.replace(/GB$/i, '') ?? gb) * 1024;
  const bares = [];
  const fulls = [];
  const r = await paired(
    Number(process.env.BENCH_MOT_PAIRS ?? 1),
    () => {
      const f = sync('mot', [motResults, motItems, itemDetail, itemGroup], motMirror);
      fulls.push(f);
      log(`mot sync: ${fmt(f.s)} s, ${f.rows} tests (${f.rejected} rejected), peak RSS ${f.rss} MB`);
      return f.s;
    },
    () => {
      const b = bare([motResults, motItems], ", quote = '\"', escape = '\\'");
      bares.push(b);
      log(`bare read_csv of both files: ${fmt(b.s)} s, peak RSS ${b.rss} MB`);
      return b.s;
    },
  );
  const rss = peak(fulls);
  pairLine({
    measure: `mot one year at ${MOT_SCALE} scale (${(MOT_RESULTS / 1e6).toFixed(1)}M results, ${(MOT_ITEMS / 1e6).toFixed(1)}M items), whole load (peak RSS ${rss} MB)`,
    unit: 's',
    what: `bare read_csv of the two files (peak RSS ${peak(bares)} MB)`,
    target: 4,
    extraTarget: `peak RSS <= DuckDB memory limit ${limitMB} MB + 1024 MB`,
    extraPass: rss <= limitMB + 1024,
    ...r,
  });
}

// ------------------------------------------------------------------------------------------------
// Queries: CLI process vs node + open mirror + SELECT 1
const binRel = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).bin?.publicdata ?? 'bin/publicdata.cjs';
const cli = join(repo, binRel);
const timeProcess = (args, env) => timeChild(args, { env, cwd: repo });
async function queryBench(measure, dataset, mirrorDir, args) {
  const env = { PUBLICDATA_DATA_DIR: dirname(mirrorDir), PUBLICDATA_CACHE_DIR: join(work, 'cache'), NO_COLOR: '1' };
  const base = join(work, `select1-${dataset}.mjs`);
  writeFileSync(base, `
    import { openDataset, query } from '${url(join(dist, 'src', 'mirror', 'db.js'))}';
    import * as infos from '${url(join(dist, 'src', 'domains', 'vehicles', 'datasets.js'))}';
    const conn = await openDataset(Object.values(infos).find((d) => d.name === '${dataset}'), '${mirrorDir}');
    process.stdout.write(JSON.stringify(await query(conn, 'SELECT 1 AS one')) + '\\n');`);
  const argv = [cli, 'vehicles', ...args, '--source', 'local', '--format', 'json'];
  const first = JSON.parse((await timeProcess(argv, env)).out);
  if (!first.data) throw new Error(`${args.join(' ')}: ${JSON.stringify(first).slice(0, 300)}`);
  log(`${args.join(' ')}: ${first.data.length} records of ${first.pagination?.total}`);
  const r = await paired(10, async () => (await timeProcess(argv, env)).ms, async () => (await timeProcess([base], env)).ms, { warmup: 1 });
  pairLine({ measure: `${measure} (median of 10)`, unit: 'ms', what: `node process opening the ${dataset} mirror + SELECT 1 (median of 10)`, target: 1.5, ...r });
}

await queryBench('vehicles licensing --make FO (make-prefix page)', 'vehicle-licensing', vehMirror, ['licensing', '--make', 'FO']);
await queryBench('vehicles mot-pass-rates --make FORD --model FOCUS', 'mot', motMirror, ['mot-pass-rates', '--make', 'FORD', '--model', 'FOCUS']);
await queryBench('vehicles mot-tests --make FORD (a page)', 'mot', motMirror, ['mot-tests', '--make', 'FORD']);
