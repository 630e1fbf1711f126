#!/usr/bin/env node
/**
 * Places benchmarks (imports from dist/: run `npm run build` first).
 *
 *  (a) load of a GENERATED national-scale ONS Postcode Directory (BENCH_PLACES_ROWS rows, default 2,700,000) in the
 *      real layout (the 53-column header of the generated August 2026 fixture: lad26cd, gridind, imd20ind; text
 *      quoted, lat/long unquoted) from its zip (Data/ONSPD_AUG_2026_UK.csv, streamed through a FIFO into DuckDB)
 *      through `sync postcodes --from <zip>` vs bare DuckDB `CREATE TABLE t AS SELECT * FROM read_csv(<the CSV>)`.
 *      Target <= 2x.
 *  (b) `publicdata postcode LS8 3BS` and (c) `publicdata area "LS8 3BS" --sections calendar` (one section; the
 *      postcode lookup through the area's sub-call) as processes vs a node process that opens the postcodes mirror
 *      and runs SELECT 1, 10 pairs each. Target <= 1.3x.
 *  (d) `publicdata area <postcode>` (one where the generated crime, collisions and food files have records) with every section (radius 1 km, 12 months) over full-size mirrors (bench/lib/area-data.mjs:
 *      the 2.7M-row postcodes of (a), crime 12 months of every force, price paid 30M rows, food hygiene 500k, five years
 *      of collisions, the companies register where a bench left them; fixtures for the datasets small nationally) as a
 *      process vs a node process that opens the same dataset files and runs SELECT 1 on each, BENCH_AREA_PAIRS pairs
 *      (default 10). Target <= 3x (issue 34; docs/performance.md says why). BENCH_PLACES_AREA_ONLY=1 measures (d) alone on
 *      the postcodes mirror an earlier run left.
 * Inputs are generated with DuckDB into bench/.work/ (cached). stdout: one line per measure; details on stderr.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, createReadStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bareLoad, runNode, RSS } from './lib/child.mjs';
import { LOAD_PAIRS, paired, pairLine, timeProcess } from './lib/pairs.mjs';
import { prepareAreaData } from './lib/area-data.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const work = join(here, '.work');
const dist = join(repo, 'dist');
const ROWS = Number(process.env.BENCH_PLACES_ROWS ?? 2_700_000);
const THREADS = process.env.BENCH_THREADS ?? '2';
const log = (...a) => console.error('[places bench]', ...a);
const fmt = (n, d = 2) => Number(n).toFixed(d);
const url = (p) => pathToFileURL(p).href;

if (!existsSync(join(dist, 'src', 'domains', 'postcodes', 'sync.js'))) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}

const dir = join(work, `places-${ROWS}`);
const csv = join(dir, 'ONSPD_AUG_2026_UK.csv');
const zip = join(dir, 'ONSPD_AUG_2026.zip');
const fixture = join(repo, 'test', 'fixtures', 'postcodes', 'GENERATED-ONSPD_AUG_2026', 'Data', 'ONSPD_AUG_2026_UK.csv');

async function generate() {
  if (existsSync(zip)) return;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const header = readFileSync(fixture, 'utf8').split(/\r?\n/)[0].split(',');
  const ls8 = readFileSync(fixture, 'utf8').split(/\r?\n/)[1]; // the fixture's LS8 3BS row, kept as the first row
  // every column as text, quoted, except lat and long (as the ONS writes them); a grid of synthetic postcodes
  // over Great Britain's box, 1 in 40 without a grid reference (quality 9, placeholder 99.999999/0.000000)
  const val = (h) => {
    switch (h) {
      // unique in the real form A9 9AA: outward two letters and a digit (from i // 6760), inward a digit and two letters
      case 'pcd7': case 'pcd8': case 'pcds': return `chr((65 + (i // 6760 // 260) % 26)::INTEGER) || chr((65 + (i // 6760 // 10) % 26)::INTEGER) || ((i // 6760) % 10)::VARCHAR || ' ' || (i % 10)::VARCHAR || chr((65 + (i // 10) % 26)::INTEGER) || chr((65 + (i // 260) % 26)::INTEGER)`;
      case 'dointr': return `'198001'`;
      case 'doterm': return `CASE WHEN i % 7 = 0 THEN '201006' ELSE '' END`;
      case 'gridind': return `CASE WHEN i % 40 = 0 THEN '9' ELSE '1' END`;
      case 'east1m': return `(100000 + (hash(i) % 500000))::VARCHAR`;
      case 'north1m': return `(100000 + (hash(i + 1) % 800000))::VARCHAR`;
      case 'lat': return `CASE WHEN i % 40 = 0 THEN 99.999999 ELSE round(50.0 + (hash(i * 3) % 8000000) / 1000000.0, 6) END`;
      case 'long': return `CASE WHEN i % 40 = 0 THEN 0.0 ELSE round(-5.5 + (hash(i * 5) % 7000000) / 1000000.0, 6) END`;
      case 'imd20ind': return `(1 + hash(i) % 32844)::VARCHAR`;
      case 'lad26cd': return `'E0800' || lpad((hash(i) % 400)::VARCHAR, 4, '0')`;
      case 'ctry26cd': return `'E92000001'`;
      case 'parncp26cd': return `CASE WHEN i % 3 = 0 THEN 'E99999999' ELSE 'E43000' || lpad((i % 999)::VARCHAR, 3, '0') END`;
      default: return `'E0' || lpad((hash(i + ${header.indexOf(h)}) % 10000000)::VARCHAR, 7, '0')`;
    }
  };
  const quoted = header.filter((h) => h !== 'lat' && h !== 'long');
  const t0 = performance.now();
  runNode(`import { DuckDBInstance } from '@duckdb/node-api';
    const db = await DuckDBInstance.create(':memory:', { threads: '${THREADS}' });
    const c = await db.connect();
    await c.run(${JSON.stringify(`COPY (SELECT ${header.map((h) => `${val(h)} AS "${h}"`).join(', ')} FROM range(${ROWS - 1}) r(i) ORDER BY hash(i))
      TO '${csv}.body' (FORMAT csv, HEADER false, FORCE_QUOTE (${quoted.map((h) => `"${h}"`).join(', ')}))`)});
    console.log('{}');`);
  // header and the LS8 3BS row first, then the body
  const { createWriteStream } = await import('node:fs');
  const { pipeline } = await import('node:stream/promises');
  const out = createWriteStream(csv);
  out.write(`${header.join(',')}\n${ls8}\n`);
  await pipeline(createReadStream(`${csv}.body`), out);
  rmSync(`${csv}.body`);
  log(`generated ${ROWS} rows (${fmt(statSync(csv).size / 1e9)} GB) in ${fmt((performance.now() - t0) / 1000, 1)} s`);
  const yazl = (await import('yazl')).default;
  const z = new yazl.ZipFile();
  z.addFile(csv, 'Data/ONSPD_AUG_2026_UK.csv');
  for (const d of ['LA_UA names and codes UK as at 04_26.csv', 'Country names and codes UK as at 08_12.csv']) {
    z.addFile(join(repo, 'test', 'fixtures', 'postcodes', 'GENERATED-ONSPD_AUG_2026', 'Documents', d), `Documents/${d}`);
  }
  z.end();
  await pipeline(z.outputStream, createWriteStream(`${zip}.tmp`));
  renameSync(`${zip}.tmp`, zip);
  log(`zipped: ${fmt(statSync(zip).size / 1e6, 0)} MB in ${fmt((performance.now() - t0) / 1000, 1)} s since start`);
}

const mirrorDir = join(work, 'places-mirror', 'mirror');
const cacheDir = join(work, 'places-cache');
function syncLoad() {
  const { result } = runNode(`
    import { syncDataset } from '${url(join(dist, 'src', 'sync-runner.js'))}';
    ${RSS}
    const t0 = performance.now();
    const r = await syncDataset('postcodes', { from: ['${zip}'], mirrorDir: '${mirrorDir}', cacheDir: '${cacheDir}', env: {}, threads: ${THREADS}, force: true });
    if (r.status !== 'synced') throw new Error(JSON.stringify(r));
    console.log(JSON.stringify({ s: (performance.now() - t0) / 1000, rows: r.rows_total, rss: __rss(), note: r.note }));`);
  return result;
}

mkdirSync(work, { recursive: true });
const AREA_ONLY = process.env.BENCH_PLACES_AREA_ONLY === '1';
if (!AREA_ONLY) await generate();
if (!AREA_ONLY) {
let rows = 0;
const loads = await paired(
  LOAD_PAIRS,
  () => {
    rmSync(dirname(mirrorDir), { recursive: true, force: true });
    const f = syncLoad();
    rows = f.rows;
    log(`sync: ${fmt(f.s)} s, ${f.rows} rows, peak RSS ${f.rss} MB; ${f.note}`);
    return f.s;
  },
  () => {
    const b = bareLoad({ db: join(work, 'places-bare.duckdb'), from: `read_csv('${csv}')`, threads: THREADS });
    log(`bare read_csv: ${fmt(b.s)} s, ${b.rows} rows, peak RSS ${b.rss} MB`);
    return b.s;
  },
);
pairLine({ minPairs: 3,
  measure: `postcodes load from the zip via sync (${rows.toLocaleString('en-GB')} rows)`, unit: 's',
  what: 'bare DuckDB read_csv of the same CSV into a table', target: 2, ...loads,
});

const env = { PUBLICDATA_DATA_DIR: dirname(mirrorDir), PUBLICDATA_CACHE_DIR: cacheDir, NO_COLOR: '1' };
const bin = join(repo, JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).bin.publicdata);
const base = join(work, 'places-select1.mjs');
writeFileSync(base, `
  import { openDataset, query } from '${url(join(dist, 'src', 'mirror', 'db.js'))}';
  import { POSTCODES_INFO } from '${url(join(dist, 'src', 'domains', 'postcodes', 'datasets.js'))}';
  const conn = await openDataset(POSTCODES_INFO, '${mirrorDir}');
  const r = await query(conn, 'SELECT 1 AS one');
  process.stdout.write(JSON.stringify(r) + '\\n');`);
const pcArgs = [bin, 'postcode', 'LS8', '3BS', '--format', 'json'];
const first = JSON.parse((await timeProcess(pcArgs, { env, cwd: repo })).out);
if (first.data?.postcode !== 'LS8 3BS') throw new Error(`unexpected answer ${JSON.stringify(first).slice(0, 300)}`);
const b1 = await paired(10, async () => (await timeProcess(pcArgs, { env, cwd: repo })).ms, async () => (await timeProcess([base], { env, cwd: repo })).ms, { warmup: 1 });
pairLine({ measure: 'postcode LS8 3BS process (median of 10)', unit: 'ms', what: 'node process opening the postcodes mirror + SELECT 1 (median of 10)', target: 1.3, ...b1 });
const areaArgs = [bin, 'area', 'LS8 3BS', '--sections', 'calendar', '--format', 'json'];
const b2 = await paired(10, async () => (await timeProcess(areaArgs, { env, cwd: repo })).ms, async () => (await timeProcess([base], { env, cwd: repo })).ms, { warmup: 1 });
pairLine({ measure: 'area "LS8 3BS" --sections calendar process (median of 10)', unit: 'ms', what: 'node process opening the postcodes mirror + SELECT 1 (median of 10)', target: 1.3, ...b2 });
}

// (d) every section over full-size mirrors
{
  const bin = join(repo, JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).bin.publicdata);
  const { dataDir, mirror, scale } = await prepareAreaData({ work, repo, dist, threads: THREADS, log });
  for (const [d, w] of Object.entries(scale)) log(`area data: ${d}: ${w}`);
  const env = { PUBLICDATA_DATA_DIR: dataDir, PUBLICDATA_CACHE_DIR: join(dataDir, 'cache'), PUBLICDATA_CONFIG_DIR: join(dataDir, 'config'), NO_COLOR: '1' };
  // The postcode: where the generated national files all have records (the crime archive clusters its points
  // around each force's centre; collisions cover 51-55 N, 3 W-1 E): the postcode nearest a street crime in that
  // box (BENCH_AREA_POSTCODE overrides).
  let postcode = process.env.BENCH_AREA_POSTCODE;
  if (!postcode) {
    const { result: at } = runNode(`
      import { openDataset, query } from '${url(join(dist, 'src', 'mirror', 'db.js'))}';
      import { CRIME_INFO } from '${url(join(dist, 'src', 'domains', 'crime', 'datasets.js'))}';
      const c = await openDataset(CRIME_INFO, '${mirror}');
      const r = await query(c, 'SELECT latitude, longitude FROM street WHERE latitude BETWEEN 51.3 AND 54.7 AND longitude BETWEEN -2.7 AND 0.7 ORDER BY latitude LIMIT 1');
      console.log(JSON.stringify(r[0]));`);
    const near = JSON.parse((await timeProcess([bin, 'postcode', '--near', `${at.latitude},${at.longitude}`, '--radius-km', '2', '--format', 'json'], { env, cwd: repo })).out);
    postcode = near.data?.[0]?.postcode;
    if (!postcode) throw new Error(`no postcode within 2 km of a crime at ${at.latitude},${at.longitude}`);
  }
  log(`area postcode: ${postcode}`);
  const args = [bin, 'area', postcode, '--format', 'json'];
  const answer = JSON.parse((await timeProcess(args, { env, cwd: repo })).out);
  const secs = answer.data?.sections ?? {};
  for (const [name, s] of Object.entries(secs)) {
    const { status, source, as_of, ...fig } = s;
    log(`area section ${name}: ${status}${status === 'ok' ? ` ${JSON.stringify(fig).slice(0, 160)}` : ` ${JSON.stringify(fig).slice(0, 160)}`}`);
  }
  const notOk = Object.entries(secs).filter(([, s]) => s.status !== 'ok').map(([n, s]) => `${n} ${s.status}`);
  if (Object.keys(secs).length !== 10 || notOk.length) throw new Error(`every section should answer: ${notOk.join(', ') || JSON.stringify(answer).slice(0, 300)}`);
  // the baseline: the same dataset files opened, SELECT 1 on each (the work every answer has to do anyway)
  const infos = [
    ['postcodes', 'POSTCODES_INFO'], ['property', 'PRICE_PAID_INFO'], ['property', 'HPI_INFO'], ['crime', 'CRIME_INFO'], ['schools', 'SCHOOLS_INFO'],
    ['food-hygiene', 'FOOD_HYGIENE_INFO'], ['earnings', 'EARNINGS_INFO'], ['companies', 'COMPANIES_INFO'], ['energy', 'ENERGY_PRICE_CAP_INFO'],
  ];
  const base = join(work, 'area-select1.mjs');
  writeFileSync(base, `
  import { openDataset, query } from '${url(join(dist, 'src', 'mirror', 'db.js'))}';
  ${infos.map(([d, n], i) => `import { ${n} as I${i} } from '${url(join(dist, 'src', 'domains', d, 'datasets.js'))}';`).join('\n  ')}
  import { ROAD_SAFETY_INFO, ROAD_TRAFFIC_INFO } from '${url(join(dist, 'src', 'domains', 'vehicles', 'traffic-datasets.js'))}';
  const out = [];
  for (const info of [${infos.map((_, i) => `I${i}`).join(', ')}, ROAD_SAFETY_INFO, ROAD_TRAFFIC_INFO]) {
    const conn = await openDataset(info, '${mirror}');
    out.push((await query(conn, 'SELECT 1 AS one'))[0].one);
  }
  process.stdout.write(JSON.stringify(out) + '\\n');`);
  const n = Number(process.env.BENCH_AREA_PAIRS ?? 10);
  const r = await paired(n, async () => (await timeProcess(args, { env, cwd: repo })).ms, async () => (await timeProcess([base], { env, cwd: repo })).ms, { warmup: 1 });
  pairLine({
    measure: `area "${postcode}" every section process (median of ${n}; ${Object.values(scale).filter((w) => !w.startsWith('fixture')).length} of ${Object.keys(scale).length} datasets at national scale)`,
    unit: 'ms', what: `node process opening the same ${infos.length + 2} dataset files + SELECT 1 on each (median of ${n})`, target: 3, ...r,
  });
}
