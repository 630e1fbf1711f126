#!/usr/bin/env node
/**
 * What the sync integrity checks (issue 21, sync/integrity.ts) add to a sync (imports from dist/: run
 * `npm run build` first).
 *
 *  (a) the damaged-file scan every sync makes of the live file (`damagedReason`: every block of every
 *      table read once) vs the full load via sync that built the file. Target <= 0.1x.
 *  (b) the cut-short check of a downloaded CSV (`incompleteReason`: reads the head and the tail) vs the
 *      sha256 the download computes of the same file anyway. Target <= 0.01x.
 *
 * Input: a price-paid file in the real format (headerless, 16 quoted columns) generated with DuckDB:
 * BENCH_SI_ROWS rows (default 3,000,000, ~500 MB), cached in bench/.work/.
 * stdout: one line per measure (bench/README.md format); details on stderr.
 */
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { paired, pairLine } from './lib/pairs.mjs';
import { runNode } from './lib/child.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const work = join(here, '.work');
const dist = join(repo, 'dist');
const ROWS = Number(process.env.BENCH_SI_ROWS ?? 3_000_000);
const THREADS = process.env.BENCH_THREADS ?? '2';
const log = (...a) => console.error('[sync-integrity bench]', ...a);
const url = (p) => pathToFileURL(p).href;
mkdirSync(work, { recursive: true });

if (!existsSync(join(dist, 'sync', 'integrity.js'))) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}

const csv = join(work, `si-pp-complete-${ROWS}.csv`);
if (!existsSync(csv)) {
  const tmp = `${csv}.tmp`;
  const ID = `'{' || upper(substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-' || substr(h, 13, 4) || '-' || substr(h, 17, 4) || '-' || substr(h, 21, 12)) || '}'`;
  log(`generating ${ROWS.toLocaleString('en-GB')} rows → ${csv}`);
  runNode(`
    import { DuckDBInstance } from '@duckdb/node-api';
    const i = await DuckDBInstance.create(':memory:'); const c = await i.connect();
    await c.run(\`COPY (SELECT ${ID}, (20000 + hash(i) % 980000)::VARCHAR, strftime(DATE '1995-01-01' + (hash(i*7) % 11250)::INT, '%Y-%m-%d') || ' 00:00',
      chr(65 + (hash(i*3) % 26)::INT) || chr(65 + (hash(i*5) % 26)::INT) || ((1 + hash(i*11) % 29)::INT)::VARCHAR || ' ' || ((hash(i*13) % 10)::INT)::VARCHAR || 'AB',
      ['D','S','T','F','O'][1 + (hash(i*23) % 5)::INT], 'N', 'F', (i % 300)::VARCHAR, '', 'SOME STREET ' || (i % 5000)::VARCHAR, '',
      'TOWN ' || (i % 900)::VARCHAR, 'DISTRICT ' || (i % 300)::VARCHAR, 'COUNTY ' || (i % 50)::VARCHAR,
      CASE WHEN ['D','S','T','F','O'][1 + (hash(i*23) % 5)::INT] = 'O' THEN 'B' ELSE 'A' END, 'A'
      FROM (SELECT i, md5(i::VARCHAR) AS h FROM range(${ROWS}) t(i))) TO '${tmp}' (FORMAT csv, HEADER false, QUOTE '"', FORCE_QUOTE *)\`);
    console.log('{}');`);
  renameSync(tmp, csv);
}
const mirrorDir = join(work, 'si-mirror');
rmSync(mirrorDir, { recursive: true, force: true });
const { result: full } = runNode(`
  import { syncDataset } from '${url(join(dist, 'src', 'sync-runner.js'))}';
  const t0 = performance.now();
  const r = await syncDataset('price-paid', { from: '${csv}', mirrorDir: '${mirrorDir}', cacheDir: '${join(work, 'si-cache')}', env: {}, threads: ${THREADS} });
  console.log(JSON.stringify({ s: (performance.now() - t0) / 1000, rows: r.rows_total }));`);
const file = join(mirrorDir, 'price_paid.duckdb');
log(`full load via sync: ${full.s.toFixed(1)} s, ${full.rows} rows, mirror file ${(statSync(file).size / 1e6).toFixed(0)} MB`);

const timed = (code) => runNode(`
  import { damagedReason, incompleteReason } from '${url(join(dist, 'sync', 'integrity.js'))}';
  import { sha256File } from '${url(join(dist, 'sync', 'download.js'))}';
  const t0 = performance.now();
  const v = await (${code});
  console.log(JSON.stringify({ s: (performance.now() - t0) / 1000, v: v ?? null }));`).result;

// (a) the scan (a process each, so every run opens the file cold as a sync does), 3 runs against the one full load
const scans = [];
for (let i = 0; i < 3; i++) {
  const r = timed(`damagedReason('${file}')`);
  if (r.v) throw new Error(`the scan says the fresh file is damaged: ${r.v}`);
  scans.push(r.s);
}
log(`scans: ${scans.map((s) => s.toFixed(2)).join(', ')} s`);
pairLine({
  measure: `damaged-file scan of the live price-paid file (${(ROWS / 1e6).toFixed(1)}M rows, every sync)`, unit: 's',
  what: 'the full load via sync that built it', target: 0.1, a: scans, b: [full.s], ratios: scans.map((s) => s / full.s),
});

// (b) the cut-short check vs the sha256 of the same file, in pairs
const checks = await paired(3, () => timed(`incompleteReason('${csv}', 'pp-complete.csv')`).s, () => timed(`sha256File('${csv}')`).s);
pairLine({ measure: `cut-short check of a ${(statSync(csv).size / 1e6).toFixed(0)} MB CSV`, unit: 's', what: 'sha256 of the same file (computed by every download)', target: 0.01, ...checks });
