#!/usr/bin/env node
/**
 * Street-level crime mirror benchmarks (imports from dist/: run `npm run build` first).
 *
 *  (a) 12 months of every force loaded through the sync path (`sync crime --from <archive>.zip`: sha256,
 *      the zip read a month at a time, read_csv of the members, category map, spatial sort, outcomes
 *      sorted by crime id, verify, checkpoint, atomic rename) vs `unzip` of the same members plus bare DuckDB
 *      `CREATE TABLE AS SELECT * FROM read_csv(...)` of them (street and outcomes tables), timed together so
 *      the baseline pays for decompression too, in pairs (BENCH_LOAD_PAIRS, default 3; the baseline is
 *      given the columns, so it does not sniff each file). Scale: BENCH_CRIME_ROWS (default 6,000,000). Target <= 2x and peak RSS under 2 GB
 *      (issue 38).
 *  (b) `publicdata crime street --near LAT,LNG --radius-km 1` over the 12 months and (c) `publicdata crime
 *      stats --lsoa CODE` over the 12 months, each as a process vs a node process that only opens the
 *      mirror and runs SELECT 1, 10 pairs. Target <= 1.3x for the radius query (issue 38), 1.5x for the LSOA one. BENCH_CRIME_QUERIES_ONLY=1 measures these on the
 *      mirror a previous run left, without the load; BENCH_CRIME_LOAD_ONLY=1 measures the load alone.
 *
 * Input: a GENERATED archive in the real layout (`YYYY-MM/YYYY-MM-<force>-street.csv` and `-outcomes.csv`
 * for 12 months x 45 forces, the published headers, 64-hex Crime IDs, 6-dp coordinates clustered around
 * each force's centre, LSOA codes by 0.01-degree cell, ~25% anti-social behaviour rows without an ID, ~2%
 * "No Location" rows, outcomes for ~70% of the crimes), BENCH_CRIME_ROWS street rows in all (default
 * 6,000,000, about a real year), zipped with yazl (deflate) and cached in bench/.work/. LF line endings
 * (the real street files are CRLF; DuckDB reads both).
 * stdout: one line per measure (bench/README.md format); details on stderr.
 */
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import yazl from 'yazl';
import { LOAD_PAIRS, paired, pairLine, timeProcess } from './lib/pairs.mjs';
import { RSS, runNode } from './lib/child.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const work = join(here, '.work');
const dist = join(repo, 'dist');
const ROWS = Number(process.env.BENCH_CRIME_ROWS ?? 6_000_000);
const THREADS = process.env.BENCH_THREADS ?? '2';
const log = (...a) => console.error('[crime bench]', ...a);
const fmt = (n, d = 2) => Number(n).toFixed(d);
const url = (p) => pathToFileURL(p).href;
const MONTHS = Array.from({ length: 12 }, (_, i) => `${i < 7 ? 2024 : 2025}-${String(((i + 5) % 12) + 1).padStart(2, '0')}`);

const SYNC_JS = join(dist, 'src', 'domains', 'crime', 'sync.js');
if (!existsSync(SYNC_JS)) {
  console.error('dist/ is missing the crime sync: run `npm run build` first');
  process.exit(1);
}
const { CRIME_FORCE_SLUGS } = await import(url(join(dist, 'src', 'domains', 'crime', 'routes.js')));
const { STREET_HEADER, OUTCOMES_HEADER } = await import(url(join(dist, 'src', 'domains', 'crime', 'archive.js')));

const input = join(work, `crime-${ROWS}`);
const members = join(input, 'members');
const zipPath = join(input, 'latest.zip');
const LABELS = ['Anti-social behaviour', 'Violence and sexual offences', 'Other theft', 'Criminal damage and arson', 'Burglary', 'Vehicle crime',
  'Shoplifting', 'Public order', 'Drugs', 'Other crime', 'Robbery', 'Theft from the person', 'Bicycle theft', 'Possession of weapons'];
const OUTCOMES = ['Investigation complete; no suspect identified', 'Unable to prosecute suspect', 'Under investigation', 'Awaiting court outcome',
  'Offender given a caution', 'Local resolution'];

/** One COPY per kind, partitioned by month and force, then renamed into the archive layout and zipped. */
async function generate() {
  if (existsSync(zipPath)) return;
  const tmp = `${input}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const forces = CRIME_FORCE_SLUGS.map((f, i) => `('${f}', ${i}, ${50.5 + (i * 0.37) % 4.5}, ${-4.5 + (i * 0.61) % 5.5})`).join(', ');
  const q = (s) => `"${s}"`;
  const arr = (xs) => `[${xs.map((x) => `'${x}'`).join(', ')}]`;
  // street rows: row i -> month, force (weighted 1..7), a point near the force's centre
  const base = `
    WITH f AS (SELECT * FROM (VALUES ${forces}) f(slug, n, clat, clng)),
    r AS (SELECT i, (i % 12) AS mi, ((hash(i) % 1000) * ${CRIME_FORCE_SLUGS.length} // 1000)::INT AS fi FROM range(${ROWS}) t(i)),
    s AS (SELECT r.i, ${arr(MONTHS)}[r.mi + 1] AS month, f.slug, f.n, r.i % 100 < 25 AS asb, r.i % 100 = 99 AS noloc,
            f.clat + ((hash(r.i * 3) % 20000)::INT - 10000) / 100000.0 AS lat, f.clng + ((hash(r.i * 5) % 20000)::INT - 10000) / 66666.0 AS lng
          FROM r JOIN f ON f.n = r.fi)`;
  const street = `${base}
    SELECT CASE WHEN asb THEN NULL ELSE sha256(i::VARCHAR) END AS ${q(STREET_HEADER[0])}, month AS ${q('Month')},
      slug || ' Police' AS ${q('Reported by')}, slug || ' Police' AS ${q('Falls within')},
      CASE WHEN noloc THEN NULL ELSE printf('%.6f', lng) END AS ${q('Longitude')}, CASE WHEN noloc THEN NULL ELSE printf('%.6f', lat) END AS ${q('Latitude')},
      CASE WHEN noloc THEN 'No Location' ELSE 'On or near Street ' || (hash(i * 7) % 5000)::VARCHAR END AS ${q('Location')},
      CASE WHEN noloc THEN NULL ELSE 'E01' || lpad(abs((floor(lat * 100)::BIGINT * 1000 + floor(lng * 100)::BIGINT) % 1000000)::VARCHAR, 6, '0') END AS ${q('LSOA code')},
      CASE WHEN noloc THEN NULL ELSE 'Area ' || (floor(lat * 100)::BIGINT % 1000)::VARCHAR || 'A' END AS ${q('LSOA name')},
      CASE WHEN asb THEN 'Anti-social behaviour' ELSE ${arr(LABELS.slice(1))}[1 + (hash(i * 11) % 13)::INT] END AS ${q('Crime type')},
      CASE WHEN asb THEN NULL ELSE ${arr(OUTCOMES)}[1 + (hash(i * 13) % 6)::INT] END AS ${q('Last outcome category')},
      NULL::VARCHAR AS ${q('Context')}, month AS pm, slug AS pf
    FROM s`;
  const outcomes = `${base}
    SELECT sha256(i::VARCHAR) AS ${q(OUTCOMES_HEADER[0])}, month AS ${q('Month')}, slug || ' Police' AS ${q('Reported by')},
      slug || ' Police' AS ${q('Falls within')},
      CASE WHEN noloc THEN NULL ELSE printf('%.6f', lng) END AS ${q('Longitude')}, CASE WHEN noloc THEN NULL ELSE printf('%.6f', lat) END AS ${q('Latitude')},
      CASE WHEN noloc THEN 'No location' ELSE 'On or near Street ' || (hash(i * 7) % 5000)::VARCHAR END AS ${q('Location')},
      CASE WHEN noloc THEN NULL ELSE 'E01' || lpad(abs((floor(lat * 100)::BIGINT * 1000 + floor(lng * 100)::BIGINT) % 1000000)::VARCHAR, 6, '0') END AS ${q('LSOA code')},
      CASE WHEN noloc THEN NULL ELSE 'Area ' || (floor(lat * 100)::BIGINT % 1000)::VARCHAR || 'A' END AS ${q('LSOA name')},
      ${arr(OUTCOMES)}[1 + (hash(i * 17) % 6)::INT] AS ${q('Outcome type')}, month AS pm, slug AS pf
    FROM s WHERE NOT asb AND i % 10 < 7`;
  log(`generating ${ROWS.toLocaleString('en-GB')} street rows (12 months x ${CRIME_FORCE_SLUGS.length} forces) → ${input}`);
  const { ms } = runNode(`
    import { DuckDBInstance } from '@duckdb/node-api';
    const db = await DuckDBInstance.create(':memory:', { threads: '${THREADS}' });
    const c = await db.connect();
    await c.run(${JSON.stringify(`COPY (${street}) TO '${join(tmp, 'street')}' (FORMAT csv, HEADER true, PARTITION_BY (pm, pf))`)});
    await c.run(${JSON.stringify(`COPY (${outcomes}) TO '${join(tmp, 'outcomes')}' (FORMAT csv, HEADER true, PARTITION_BY (pm, pf))`)});
    console.log('{}');`);
  log(`generated CSV in ${fmt(ms / 1000, 1)} s; zipping`);
  mkdirSync(members, { recursive: true });
  const zip = new yazl.ZipFile();
  for (const kind of ['street', 'outcomes']) {
    for (const pm of readdirSync(join(tmp, kind)).sort()) {
      const month = pm.slice(3);
      mkdirSync(join(members, month), { recursive: true });
      for (const pf of readdirSync(join(tmp, kind, pm)).sort()) {
        const force = pf.slice(3);
        const dir = join(tmp, kind, pm, pf);
        const name = `${month}/${month}-${force}-${kind}.csv`;
        // DuckDB may write a partition as several files (one per thread): one member, one header
        const parts = readdirSync(dir).sort().map((f, i) => {
          const text = readFileSync(join(dir, f), 'utf8');
          return i === 0 ? text : text.slice(text.indexOf('\n') + 1);
        });
        writeFileSync(join(members, name), parts.join(''));
        zip.addFile(join(members, name), name, { mtime: new Date('2025-07-01T00:00:00Z') });
      }
    }
  }
  const t0 = performance.now();
  await new Promise((resolve, reject) => {
    zip.outputStream.pipe(createWriteStream(`${zipPath}.part`)).on('close', resolve).on('error', reject);
    zip.end();
  });
  renameSync(`${zipPath}.part`, zipPath);
  rmSync(tmp, { recursive: true, force: true });
  log(`zipped in ${fmt((performance.now() - t0) / 1000, 1)} s: ${fmt(statSync(zipPath).size / 1e6, 1)} MB`);
}

/** The baseline's read_csv options: the header's columns as text, no sniffing (the fastest plain read). */
const opts = (header) => `header = true, columns = {${header.map((h) => `'${h}': 'VARCHAR'`).join(', ')}}`;

/**
 * The baseline pays for decompression: in one child, timed together, Info-ZIP `unzip -q` of the archive's
 * street and outcomes members (the months the sync loads: every month of this archive) into a scratch
 * directory, then bare read_csv of them into two tables and CHECKPOINT (docs/performance.md, "Crime load":
 * why unzip + read_csv and not the JavaScript zip reader's stream).
 */
function bareLoad() {
  const db = join(work, 'crime-bare.duckdb');
  const dir = join(work, 'crime-bare-unzip');
  for (const f of [db, `${db}.wal`, dir]) rmSync(f, { recursive: true, force: true });
  const { result } = runNode(`
    import { DuckDBInstance } from '@duckdb/node-api';
    import { execFileSync } from 'node:child_process';
    import { readdirSync } from 'node:fs';
    import { join } from 'node:path';
    ${RSS}
    const t0 = performance.now();
    execFileSync('unzip', ['-q', '-o', ${JSON.stringify(zipPath)}, '*-street.csv', '*-outcomes.csv', '-d', ${JSON.stringify(dir)}]);
    const unz = (performance.now() - t0) / 1000;
    const files = (kind) => readdirSync(${JSON.stringify(dir)}).sort().flatMap((m) => readdirSync(join(${JSON.stringify(dir)}, m)).filter((f) => f.endsWith('-' + kind + '.csv')).sort().map((f) => join(${JSON.stringify(dir)}, m, f)));
    const db = await DuckDBInstance.create('${db}', { threads: '${THREADS}' });
    const c = await db.connect();
    await c.run(\`CREATE TABLE street AS SELECT * FROM read_csv(\${JSON.stringify(files('street'))}, ${opts(STREET_HEADER)})\`);
    await c.run(\`CREATE TABLE outcomes AS SELECT * FROM read_csv(\${JSON.stringify(files('outcomes'))}, ${opts(OUTCOMES_HEADER)})\`);
    await c.run('CHECKPOINT');
    c.closeSync(); db.closeSync();
    console.log(JSON.stringify({ s: (performance.now() - t0) / 1000, unzip: unz, rss: __rss() }));`);
  for (const f of [db, dir]) rmSync(f, { recursive: true, force: true });
  return result;
}

const mirrorDir = join(work, 'crime-mirror', 'mirror');
const cacheDir = join(work, 'crime-cache');
function syncLoad() {
  const { result } = runNode(`
    import { syncDataset } from '${url(join(dist, 'src', 'sync-runner.js'))}';
    ${RSS}
    const t0 = performance.now();
    // where the time goes: the framework's phases and the load's own spans (crime: <phase> done in …)
    const timeline = [];
    const at = () => ((performance.now() - t0) / 1000).toFixed(1);
    const progress = (e) => {
      if (e.type === 'phase') timeline.push(at() + ' s: phase ' + e.phase + ' starts (RSS ' + Math.round(process.memoryUsage.rss() / 2 ** 20) + ' MB)');
      if (e.type === 'message' && / done in /.test(e.text)) timeline.push(at() + ' s: ' + e.text + ' (RSS ' + Math.round(process.memoryUsage.rss() / 2 ** 20) + ' MB)');
    };
    const r = await syncDataset('crime', { from: ['${zipPath}'], mirrorDir: '${mirrorDir}', cacheDir: '${cacheDir}', env: {}, threads: ${THREADS}, progress });
    timeline.push(at() + ' s: done');
    console.log(JSON.stringify({ s: (performance.now() - t0) / 1000, rows: r.rows_total, rejected: r.rows_rejected, rss: __rss(), timeline }));`);
  return result;
}

// ------------------------------------------------------------------------------------------------
mkdirSync(work, { recursive: true });
await generate();
log(`archive ${fmt(statSync(zipPath).size / 1e6, 1)} MB, threads ${THREADS}`);
// the load's DuckDB memory limit (the module's own unless PUBLICDATA_SYNC_MEMORY is set)
const { crime: crimeModule } = await import(url(SYNC_JS));
const memLimit = process.env.PUBLICDATA_SYNC_MEMORY ?? crimeModule.memoryLimit ?? "DuckDB's default";

// BENCH_CRIME_QUERIES_ONLY=1: measure (b) and (c) on the mirror a previous run left (no load line)
if (!(process.env.BENCH_CRIME_QUERIES_ONLY && existsSync(join(mirrorDir, 'crime.duckdb')))) {
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
      for (const t of f.timeline) log(`  ${t}`);
      return f.s;
    },
    () => {
      const b = bareLoad();
      peaks.b = Math.max(peaks.b, b.rss);
      log(`bare unzip + read_csv: ${fmt(b.s)} s (unzip ${fmt(b.unzip)} s), peak RSS ${b.rss} MB`);
      return b.s;
    },
  );
  pairLine({ minPairs: 3,
    measure: `crime 12 months x 45 forces via sync from the zip (${ROWS.toLocaleString('en-GB')} street rows, ${rows.toLocaleString('en-GB')} rows in street + outcomes, peak RSS ${peaks.a} MB)`,
    unit: 's',
    what: `unzip of the same members + bare DuckDB read_csv of them (peak RSS ${peaks.b} MB)`,
    target: 2,
    fewPairsWhy: 'BENCH_LOAD_PAIRS is set below 3 (each pair takes minutes at full scale)',
    extraTarget: `peak RSS < 2 GB (2048 MB; the load's DuckDB memory limit ${memLimit})`,
    extraPass: peaks.a < 2048,
    ...loads,
  });
}

// (b), (c): queries through the CLI, against a node process that opens the mirror and runs SELECT 1
// (BENCH_CRIME_LOAD_ONLY=1: the load line only, e.g. to profile the load at a reduced BENCH_CRIME_ROWS)
if (process.env.BENCH_CRIME_LOAD_ONLY) process.exit();
const env = { PUBLICDATA_DATA_DIR: dirname(mirrorDir), PUBLICDATA_CACHE_DIR: cacheDir, NO_COLOR: '1' };
const bin = join(repo, 'bin', 'publicdata.cjs');
const { result: probe } = runNode(`
  import { openDataset, query } from '${url(join(dist, 'src', 'mirror', 'db.js'))}';
  import { CRIME_INFO } from '${url(join(dist, 'src', 'domains', 'crime', 'datasets.js'))}';
  const c = await openDataset(CRIME_INFO, '${mirrorDir}');
  const [p] = await query(c, "SELECT latitude, longitude FROM street WHERE force = 'metropolitan' AND latitude IS NOT NULL LIMIT 1 OFFSET 1000");
  const [l] = await query(c, "SELECT lsoa_code FROM street WHERE force = 'metropolitan' AND lsoa_code IS NOT NULL LIMIT 1 OFFSET 2000");
  const [m] = await query(c, 'SELECT min(month) AS f, max(month) AS t FROM coverage');
  console.log(JSON.stringify({ ...p, ...l, ...m }));`);
const base = join(work, 'crime-select1.mjs');
writeFileSync(base, `
  import { openDataset, query } from '${url(join(dist, 'src', 'mirror', 'db.js'))}';
  import { CRIME_INFO } from '${url(join(dist, 'src', 'domains', 'crime', 'datasets.js'))}';
  const conn = await openDataset(CRIME_INFO, '${mirrorDir}');
  const r = await query(conn, 'SELECT 1 AS one');
  process.stdout.write(JSON.stringify(r) + '\\n');`);
const months = ['--from', probe.f, '--to', probe.t];
const queries = [
  ['crime street --near … --radius-km 1 over 12 months', ['crime', 'street', '--near', `${probe.latitude},${probe.longitude}`, '--radius-km', '1', ...months]],
  ['crime stats --lsoa … over 12 months', ['crime', 'stats', '--lsoa', probe.lsoa_code, ...months]],
];
// the radius query has the headroom issue 38 asks for (1.3x); the LSOA statistics keep the spec's 1.5x
const queryTargets = { 'crime street --near … --radius-km 1 over 12 months': 1.3 };
for (const [label, a] of queries) {
  const args = [bin, ...a, '--source', 'local', '--format', 'json'];
  const out = JSON.parse((await timeProcess(args, { env, cwd: repo })).out);
  log(`${label}: ${out.pagination ? `${out.pagination.total} crimes` : `${out.data.total} crimes`}`);
  const r = await paired(10, async () => (await timeProcess(args, { env, cwd: repo })).ms, async () => (await timeProcess([base], { env, cwd: repo })).ms, { warmup: 1 });
  pairLine({ measure: `${label} process (median of 10)`, unit: 'ms', what: 'node process opening the mirror + SELECT 1 (median of 10)', target: queryTargets[label] ?? 1.5, ...r });
}
