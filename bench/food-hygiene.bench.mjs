#!/usr/bin/env node
/**
 * Food-hygiene mirror benchmarks (imports from dist/: run `npm run build` first).
 *
 *  (a) a generated national set in the real format (BENCH_FH_FILES files, default 400; BENCH_FH_ESTABLISHMENTS,
 *      default 500,000; bench/lib/food-hygiene-gen.mjs) loaded through the sync path (`sync food-hygiene
 *      --from <folder>`: sha256, saxes streaming parse, normalisations, staging CSV, DuckDB load sorted by
 *      grid cell, verify, checkpoint, atomic rename) vs the baseline the issue names: a bare saxes pass
 *      over the same files with no handlers, plus DuckDB's own read_csv of the staged rows into a table.
 *      Pairs: BENCH_LOAD_PAIRS (default 3). Target <= 2x. Peak RSS of the sync is also measured at a
 *      quarter of the files (same establishments per file): flat in the number of files.
 *  (b) `publicdata food-hygiene search --near … --radius-km 1` and `food-hygiene show <id>` as processes
 *      vs a node process that only opens the mirror and runs SELECT 1, 10 pairs each. Target <= 1.5x.
 *
 * stdout: one line per measure (bench/README.md format); details on stderr.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LOAD_PAIRS, paired, pairLine, timeProcess as timeChild } from './lib/pairs.mjs';
import { bareLoad, RSS, runNode } from './lib/child.mjs';
import { generateFoodHygiene } from './lib/food-hygiene-gen.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const work = join(here, '.work');
const dist = join(repo, 'dist');
const FILES = Number(process.env.BENCH_FH_FILES ?? 400);
const N = Number(process.env.BENCH_FH_ESTABLISHMENTS ?? 500_000);
const THREADS = process.env.BENCH_THREADS ?? '2';
const log = (...a) => console.error('[food-hygiene bench]', ...a);
const fmt = (n, d = 2) => Number(n).toFixed(d);
const url = (p) => pathToFileURL(p).href;

if (!existsSync(join(dist, 'src', 'domains', 'food-hygiene', 'sync', 'index.js'))) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}

function ensureSet(files, establishments) {
  const dir = join(work, `food-hygiene-${files}-${establishments}`);
  if (!existsSync(dir)) {
    const tmp = `${dir}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    const t0 = performance.now();
    const g = generateFoodHygiene(tmp, { files, establishments });
    renameSync(tmp, dir);
    log(`generated ${g.files} files, ${g.establishments.toLocaleString('en-GB')} establishments, ${fmt(g.bytes / 1e6, 1)} MB in ${fmt((performance.now() - t0) / 1000, 1)} s`);
  }
  return dir;
}

function syncLoad(input, mirrorDir, cacheDir) {
  rmSync(dirname(mirrorDir), { recursive: true, force: true });
  const { result } = runNode(`
    import { syncDataset } from '${url(join(dist, 'src', 'sync-runner.js'))}';
    ${RSS}
    const t0 = performance.now();
    const r = await syncDataset('food-hygiene', { from: ['${input}'], mirrorDir: '${mirrorDir}', cacheDir: '${cacheDir}', env: {}, threads: ${THREADS} });
    console.log(JSON.stringify({ s: (performance.now() - t0) / 1000, rows: r.rows_total, rejected: r.rows_rejected, rss: __rss() }));`);
  return result;
}

/** The staged rows of the set, written once (untimed) with the sync's own normaliser, for the read_csv baseline. */
function stagedCsv(input) {
  const out = join(work, `food-hygiene-staged-${FILES}-${N}.csv`);
  if (existsSync(out)) return out;
  runNode(`
    import { openSync, writeSync, closeSync, readdirSync } from 'node:fs';
    import { join } from 'node:path';
    import { parseAuthorityFile } from '${url(join(dist, 'src', 'domains', 'food-hygiene', 'sync', 'parse.js'))}';
    import { csvOfEstablishment } from '${url(join(dist, 'src', 'domains', 'food-hygiene', 'sync', 'normalise.js'))}';
    const fd = openSync('${out}.tmp', 'w');
    const x = { unknownRating: undefined };
    for (const f of readdirSync('${input}').filter((n) => n.endsWith('.xml')).sort()) {
      let buf = '';
      await parseAuthorityFile(join('${input}', f), (e) => { const l = csvOfEstablishment(e, '1', x); if (typeof l === 'string') buf += l; });
      writeSync(fd, buf);
    }
    closeSync(fd);
    console.log('{}');`);
  renameSync(`${out}.tmp`, out);
  return out;
}

/** A bare saxes pass over every file: no handlers, the same 256 KiB chunks. */
function bareParse(input) {
  const { result } = runNode(`
    import { createReadStream, readdirSync } from 'node:fs';
    import { join } from 'node:path';
    import { SaxesParser } from 'saxes';
    ${RSS}
    const t0 = performance.now();
    for (const f of readdirSync('${input}').filter((n) => n.endsWith('.xml'))) {
      const p = new SaxesParser({ position: true });
      for await (const chunk of createReadStream(join('${input}', f), { encoding: 'utf8', highWaterMark: 256 * 1024 })) p.write(chunk);
      p.close();
    }
    console.log(JSON.stringify({ s: (performance.now() - t0) / 1000, rss: __rss() }));`);
  return result;
}

// ------------------------------------------------------------------------------------------------
mkdirSync(work, { recursive: true });
const input = ensureSet(FILES, N);
const xml = readdirSync(input).filter((f) => f.endsWith('.xml'));
const bytes = xml.reduce((s, f) => s + statSync(join(input, f)).size, 0);
log(`input ${xml.length} files, ${fmt(bytes / 1e6, 1)} MB, threads ${THREADS}`);
const staged = stagedCsv(input);
const { COLUMNS } = await import(url(join(dist, 'src', 'domains', 'food-hygiene', 'sync', 'normalise.js')));
const columns = `{${COLUMNS.map(([c, t]) => `'${c}': '${t}'`).join(', ')}}`;

const mirrorDir = join(work, 'fh-mirror', 'mirror');
const cacheDir = join(work, 'fh-cache');
const peaks = { a: 0, b: 0 };
let rows = 0;
const loads = await paired(
  LOAD_PAIRS,
  () => {
    const f = syncLoad(input, mirrorDir, cacheDir);
    peaks.a = Math.max(peaks.a, f.rss);
    rows = f.rows;
    log(`sync: ${fmt(f.s)} s, ${f.rows} rows (${f.rejected} rejected), peak RSS ${f.rss} MB`);
    return f.s;
  },
  () => {
    const p = bareParse(input);
    const b = bareLoad({ db: join(work, 'fh-bare.duckdb'), from: `read_csv('${staged}', columns = ${columns}, header = false, quote = '"', escape = '"', auto_detect = false)`, threads: THREADS });
    peaks.b = Math.max(peaks.b, p.rss, b.rss);
    log(`bare saxes pass: ${fmt(p.s)} s (RSS ${p.rss} MB) + read_csv of the staged rows: ${fmt(b.s)} s (RSS ${b.rss} MB)`);
    return p.s + b.s;
  },
);
// peak RSS at a quarter of the files, the same establishments per file
const quarterFiles = Math.max(1, Math.round(FILES / 4));
const small = ensureSet(quarterFiles, Math.round((N / FILES) * quarterFiles));
const q = syncLoad(small, join(work, 'fh-mirror-q', 'mirror'), cacheDir);
rmSync(join(work, 'fh-mirror-q'), { recursive: true, force: true });
log(`sync of ${quarterFiles} files: ${fmt(q.s)} s, peak RSS ${q.rss} MB`);
pairLine({ minPairs: 3,
  measure: `food-hygiene national set via sync (${xml.length} files, ${rows.toLocaleString('en-GB')} establishments, ${fmt(bytes / 1e6, 0)} MB; peak RSS ${peaks.a} MB, ${q.rss} MB at ${quarterFiles} files)`,
  unit: 's',
  what: `bare saxes pass over the files + DuckDB read_csv of the staged rows (peak RSS ${peaks.b} MB)`,
  target: 2,
  ...loads,
});
// (b) search near a point and show one establishment, through the CLI
const env = { PUBLICDATA_DATA_DIR: dirname(mirrorDir), PUBLICDATA_CACHE_DIR: cacheDir, NO_COLOR: '1' };
const binRel = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).bin.publicdata;
const bin = join(repo, binRel);
const pick = JSON.parse((await timeChild([bin, 'food-hygiene', 'search', '--authority', 'Authority', '--source', 'local', '--format', 'json'], { env, cwd: repo })).out).data.find((e) => e.location);
if (!pick?.location) throw new Error('no establishment with a location to search around');
const near = [bin, 'food-hygiene', 'search', '--near', `${pick.location.latitude},${pick.location.longitude}`, '--radius-km', '1', '--source', 'local', '--format', 'json'];
const show = [bin, 'food-hygiene', 'show', String(pick.fhrs_id), '--source', 'local', '--format', 'json'];
const probe = JSON.parse((await timeChild(near, { env, cwd: repo })).out);
log(`search --near … --radius-km 1: ${probe.pagination.total} establishments within 1 km`);
if (JSON.parse((await timeChild(show, { env, cwd: repo })).out).data.fhrs_id !== pick.fhrs_id) throw new Error('show answered another establishment');
const base = join(work, 'fh-select1.mjs');
writeFileSync(base, `
  import { openDataset, query } from '${url(join(dist, 'src', 'mirror', 'db.js'))}';
  import { FOOD_HYGIENE_INFO } from '${url(join(dist, 'src', 'domains', 'food-hygiene', 'datasets.js'))}';
  const conn = await openDataset(FOOD_HYGIENE_INFO, '${mirrorDir}');
  const r = await query(conn, 'SELECT 1 AS one');
  process.stdout.write(JSON.stringify(r) + '\\n');`);
const baseline = async () => (await timeChild([base], { env, cwd: repo })).ms;
const s = await paired(10, async () => (await timeChild(near, { env, cwd: repo })).ms, baseline, { warmup: 1 });
pairLine({ measure: 'food-hygiene search --near … --radius-km 1 process (median of 10)', unit: 'ms', what: 'node process opening the mirror + SELECT 1 (median of 10)', target: 1.5, ...s });
const d = await paired(10, async () => (await timeChild(show, { env, cwd: repo })).ms, baseline, { warmup: 1 });
pairLine({ measure: 'food-hygiene show <id> process (median of 10)', unit: 'ms', what: 'node process opening the mirror + SELECT 1 (median of 10)', target: 1.5, ...d });
