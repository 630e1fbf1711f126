#!/usr/bin/env node
/**
 * Companies and PSC mirror benchmarks (imports from dist/: run `npm run build` first).
 *
 *  (a) `companies` load through the sync path (`sync companies --from <CSV>`: header check, read_csv with
 *      explicit all-VARCHAR columns, typed projection, name normalisation, rejects, sort on company
 *      number, departed, verify, checkpoint, rename) vs a bare DuckDB `CREATE TABLE t AS SELECT * FROM
 *      read_csv(file)`, in pairs. Target <= 2x. Unzipping the one-file zip is reported on its own line
 *      (yauzl extraction vs a plain copy of the same bytes).
 *  (b) `psc` load through the sync path vs a bare `read_json` of the same lines with explicit columns
 *      {company_number VARCHAR, data JSON} into a table, in pairs. Target <= 2x.
 *  (c) `companies show <n>` and `companies psc <n>` processes vs a node process that opens the mirror and
 *      runs SELECT 1 (10 pairs, target <= 1.5x); `companies search <name>` and `companies network <n>`
 *      (target <= 2x).
 *
 * Input: files in the real formats generated with DuckDB (55 quoted columns under the real header with its
 * leading spaces, DD/MM/YYYY dates, "NNNNN - Description" SIC texts; PSC JSON lines with the totals
 * trailer). Full scale by default: BENCH_COMPANIES_ROWS (5,700,000) and BENCH_PSC_LINES (16,000,000);
 * cached in bench/.work/. Each measure runs in its own child process so peak RSS is per measure.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LOAD_PAIRS, paired, pairLine, timeProcess as timeChild } from './lib/pairs.mjs';
import { bareLoad, RSS, runNode } from './lib/child.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const work = join(here, '.work', 'companies');
const dist = join(repo, 'dist');
const ROWS = Number(process.env.BENCH_COMPANIES_ROWS ?? 5_700_000);
const LINES = Number(process.env.BENCH_PSC_LINES ?? 16_000_000);
const THREADS = process.env.BENCH_THREADS ?? '2';
mkdirSync(work, { recursive: true });

const log = (...a) => console.error('[companies bench]', ...a);
const fmt = (n, d = 2) => Number(n).toFixed(d);
const url = (p) => pathToFileURL(p).href;
const M = (n) => `${(n / 1e6).toFixed(n % 1e6 ? 1 : 0)}M`;

if (!existsSync(join(dist, 'sync', 'framework.js'))) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}

const DUCK = `import { DuckDBInstance } from '@duckdb/node-api';`;

// ------------------------------------------------------------------------------------------------
// Inputs
const stamp = '2026-11-01';
const csv = join(work, `BasicCompanyDataAsOneFile-${stamp}-${ROWS}.csv`);
const zip = join(work, `BasicCompanyDataAsOneFile-${stamp}-${ROWS}.zip`);
// Individuals: PEOPLE distinct persons, person p on lines p, p + PEOPLE, p + 2 PEOPLE ... (about 2.5 companies
// each; line j's company is ((7 j + j div PEOPLE) mod ROWS) + 1), so controllers recur across companies (network).
const PEOPLE = Math.max(1, Math.round(LINES / 2.5));
// Line j's company depends on ROWS, so a file cached for another BENCH_COMPANIES_ROWS is another file (the
// default scale keeps the plain name).
const pscFile = join(work, `persons-with-significant-control-snapshot-2026-11-20-${LINES}-p${PEOPLE}${ROWS === 5_700_000 ? '' : `-r${ROWS}`}.txt`);
const HEADER = readFileSync(join(repo, 'test', 'fixtures', 'companies', 'basic-sample.csv'), 'utf8').split('\n')[0];
const WORDS = ['ACME', 'GLOBAL', 'BRITISH', 'NORTHERN', 'TECH', 'HOLDINGS', 'PROPERTY', 'CONSULTING', 'GREEN', 'SERVICES', 'TRADING', 'CAPITAL', 'DESIGN', 'MEDIA', 'LONDON', 'WIDGETS'];
const SICS = ['62020 - Information technology consultancy activities', '70229 - Management consultancy activities other than financial management', '68209 - Other letting and operating of own or leased real estate', '99999 - Dormant Company', '7499 - Non-trading company', 'None Supplied'];
const arr = (xs) => `[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(', ')}]`;
const pick = (xs, i, k) => `${arr(xs)}[1 + (hash(${i} * ${k}) % ${xs.length})::INT]`;
const ddmmyyyy = (expr) => `strftime(${expr}, '%d/%m/%Y')`;
// One row in 20 is a Scottish company: SC + a 6-digit number unique per row (i // 20), as numbers are upstream.
const num = (i) => `CASE WHEN ${i} % 20 = 3 THEN 'SC' || lpad((${i} // 20)::VARCHAR, 6, '0') ELSE lpad(${i}::VARCHAR, 8, '0') END`;

function generate() {
  if (!existsSync(csv)) {
    log(`generating ${ROWS.toLocaleString('en-GB')} companies → ${csv}`);
    const body = `${csv}.body`;
    const cols = [
      `${pick(WORDS, 'i', 3)} || ' ' || ${pick(WORDS, 'i', 5)} || ' ' || i::VARCHAR || CASE WHEN i % 9 = 0 THEN ' PLC' ELSE ' LIMITED' END`, num('i'),
      "''", "''", `(1 + i % 300)::VARCHAR || ' HIGH STREET'`, "''", `'TOWN ' || (i % 900)::VARCHAR`, "''", "'UNITED KINGDOM'",
      `chr(65 + (hash(i * 7) % 26)::INT) || chr(65 + (hash(i * 11) % 26)::INT) || (1 + hash(i * 13) % 29)::VARCHAR || ' ' || (hash(i * 17) % 10)::VARCHAR || chr(65 + (hash(i * 19) % 26)::INT) || chr(65 + (hash(i * 23) % 26)::INT)`,
      `CASE WHEN i % 9 = 0 THEN 'Public Limited Company' ELSE 'Private Limited Company' END`,
      `CASE WHEN i % 50 = 0 THEN 'Liquidation' WHEN i % 23 = 0 THEN 'Active - Proposal to Strike off' ELSE 'Active' END`,
      "'United Kingdom'", "''", ddmmyyyy(`DATE '1960-01-01' + (hash(i * 29) % 24000)::INT`), "'31'", "'12'",
      ddmmyyyy(`DATE '2026-01-01' + (hash(i * 31) % 700)::INT`), ddmmyyyy(`DATE '2024-01-01' + (hash(i * 37) % 700)::INT`), "'TOTAL EXEMPTION FULL'",
      "''", "''", "'0'", "'0'", "'0'", "'0'", pick(SICS, 'i', 41), `CASE WHEN i % 4 = 0 THEN ${pick(SICS, 'i', 43)} ELSE '' END`, "''", "''", "'0'", "'0'",
      `'http://business.data.gov.uk/id/company/' || ${num('i')}`,
      ...Array.from({ length: 20 }, () => "''"),
      ddmmyyyy(`DATE '2026-01-01' + (hash(i * 47) % 500)::INT`), ddmmyyyy(`DATE '2025-01-01' + (hash(i * 53) % 365)::INT`),
    ];
    if (cols.length !== 55) throw new Error(`generator has ${cols.length} columns`);
    runNode(`${DUCK}
      const db = await DuckDBInstance.create(':memory:', { threads: '${THREADS}' });
      const c = await db.connect();
      await c.run(\`COPY (SELECT ${cols.map((x, k) => `${x} AS c${k}`).join(', ').replace(/`/g, '\\`')} FROM range(1, ${ROWS + 1}) t(i)) TO '${body}' (FORMAT csv, HEADER false, FORCE_QUOTE *)\`);
      console.log('{}');`);
    writeFileSync(`${csv}.tmp`, `${HEADER}\n`);
    spawnSync('sh', ['-c', `cat '${body}' >> '${csv}.tmp'`]);
    rmSync(body);
    renameSync(`${csv}.tmp`, csv);
    log(`companies CSV ${fmt(statSync(csv).size / 1e9)} GB`);
  }
  if (!existsSync(zip)) {
    runNode(`import yazl from 'yazl'; import { createWriteStream } from 'node:fs';
      const z = new yazl.ZipFile(); z.addFile('${csv}', 'BasicCompanyDataAsOneFile-${stamp}.csv', { forceZip64Format: true });
      z.end(); await new Promise((ok, ko) => z.outputStream.pipe(createWriteStream('${zip}.tmp')).on('close', ok).on('error', ko));
      console.log('{}');`);
    renameSync(`${zip}.tmp`, zip);
    log(`companies zip ${fmt(statSync(zip).size / 1e9)} GB`);
  }
  if (!existsSync(pscFile)) {
    log(`generating ${LINES.toLocaleString('en-GB')} PSC lines → ${pscFile}`);
    const data = `CASE WHEN j % 17 = 0 THEN {
        'etag': md5(j::VARCHAR), 'identification': {'country_registered': 'England', 'legal_authority': 'Companies Act', 'registration_number': lpad(((j * 13) % ${ROWS} + 1)::VARCHAR, 8, '0')},
        'kind': 'corporate-entity-person-with-significant-control', 'name': 'HOLDCO ' || ((j * 13) % ${ROWS})::VARCHAR || ' LIMITED',
        'natures_of_control': ['ownership-of-shares-75-to-100-percent'], 'notified_on': strftime(DATE '2016-04-06' + (j % 3000)::INT, '%Y-%m-%d')}::JSON
      WHEN j % 29 = 0 THEN {'etag': md5(j::VARCHAR), 'kind': 'persons-with-significant-control-statement', 'notified_on': '2016-04-06', 'statement': 'no-individual-or-entity-with-signficant-control'}::JSON
      ELSE {
        'address': {'address_line_1': 'Road ' || (j % 1000)::VARCHAR, 'locality': 'Town', 'postal_code': 'AB1 2CD', 'premises': '1'},
        'ceased_on': CASE WHEN j % 7 = 0 THEN strftime(DATE '2019-01-01' + (j % 2000)::INT, '%Y-%m-%d') END,
        'country_of_residence': 'England', 'date_of_birth': {'month': 1 + (j % ${PEOPLE} % 12), 'year': 1940 + (j % ${PEOPLE} % 60)}, 'etag': md5(j::VARCHAR),
        'kind': 'individual-person-with-significant-control', 'name': 'Mr F' || (j % ${PEOPLE} % 50000)::VARCHAR || ' S' || (j % ${PEOPLE} // 50000)::VARCHAR,
        'name_elements': {'forename': 'F' || (j % ${PEOPLE} % 50000)::VARCHAR, 'surname': 'S' || (j % ${PEOPLE} // 50000)::VARCHAR, 'title': 'Mr'},
        'nationality': 'British', 'natures_of_control': ['ownership-of-shares-25-to-50-percent', 'voting-rights-25-to-50-percent'],
        'notified_on': strftime(DATE '2016-04-06' + (j % 3000)::INT, '%Y-%m-%d')}::JSON END`;
    const persons = `count(*) FILTER (WHERE j % 29 <> 0 OR j % 17 = 0)`;
    const { p, s } = runNode(`${DUCK}
      const db = await DuckDBInstance.create(':memory:', { threads: '${THREADS}' });
      const c = await db.connect();
      await c.run(\`COPY (SELECT lpad(((j * 7 + j // ${PEOPLE}) % ${ROWS} + 1)::VARCHAR, 8, '0') AS company_number, ${data.replace(/`/g, '\\`')} AS data FROM range(${LINES - 1}) t(j)) TO '${pscFile}.tmp' (FORMAT json)\`);
      const r = await c.runAndReadAll(\`SELECT ${persons} AS p, count(*) - ${persons} AS s FROM range(${LINES - 1}) t(j)\`);
      const [p, s] = r.getRows()[0].map(Number);
      console.log(JSON.stringify({ p, s }));`).result;
    appendFileSync(`${pscFile}.tmp`, `${JSON.stringify({ data: { kind: 'totals#persons-of-significant-control-snapshot', persons_of_significant_control_count: p, statements_count: s, exemptions_count: 0, generated_at: '2026-11-20T03:43:03Z' } })}\n`);
    renameSync(`${pscFile}.tmp`, pscFile);
    log(`PSC file ${fmt(statSync(pscFile).size / 1e9)} GB`);
  }
}
// ------------------------------------------------------------------------------------------------
const mirrorDir = join(work, 'mirror');
const cacheDir = join(work, 'cache');

function bare(sqlFrom) {
  return bareLoad({ db: join(work, 'bare.duckdb'), from: sqlFrom, threads: THREADS });
}

function syncLoad(dataset, from) {
  const { result } = runNode(`
    import { syncDataset } from '${url(join(dist, 'src', 'sync-runner.js'))}';
    ${RSS}
    const t0 = performance.now();
    const r = await syncDataset('${dataset}', { from: '${from}', mirrorDir: '${mirrorDir}', cacheDir: '${cacheDir}', env: {}, threads: ${THREADS}, force: true });
    console.log(JSON.stringify({ s: (performance.now() - t0) / 1000, rows: r.rows_total, rejected: r.rows_rejected, rss: __rss(), cpu: __cpu() }));`);
  return result;
}

async function loadPairs(label, dataset, from, bareFrom, target, what) {
  const fulls = [];
  const bares = [];
  const r = await paired(
    LOAD_PAIRS,
    () => {
      rmSync(join(mirrorDir, `${dataset}.duckdb`), { force: true });
      const f = syncLoad(dataset, from);
      fulls.push(f);
      log(`${dataset} sync load: ${fmt(f.s)} s, CPU ${fmt(f.cpu, 1)} s, ${f.rows} rows (${f.rejected} rejected), peak RSS ${f.rss} MB`);
      return f.s;
    },
    () => {
      const b = bare(bareFrom);
      bares.push(b);
      log(`${dataset} bare: ${fmt(b.s)} s, CPU ${fmt(b.cpu, 1)} s, ${b.rows} rows, peak RSS ${b.rss} MB`);
      return b.s;
    },
  );
  const peak = (xs) => Math.max(...xs.map((x) => x.rss));
  // CPU seconds (all threads), median: the steadier figure on a shared machine, shown beside the wall times.
  const cpu = (xs) => fmt(xs.map((x) => x.cpu).sort((p, q) => p - q)[Math.floor(xs.length / 2)], 1);
  pairLine({ minPairs: 3,
    measure: `${label} (peak RSS ${peak(fulls)} MB, CPU ${cpu(fulls)} s)`, unit: 's',
    what: `${what} (peak RSS ${peak(bares)} MB, CPU ${cpu(bares)} s)`, target, ...r,
  });
}

const timeProcess = (args, env) => timeChild(args, { env, cwd: repo });

// ------------------------------------------------------------------------------------------------
generate();
log(`companies ${fmt(statSync(csv).size / 1e9)} GB / ${ROWS.toLocaleString('en-GB')} rows; PSC ${fmt(statSync(pscFile).size / 1e9)} GB / ${LINES.toLocaleString('en-GB')} lines; threads ${THREADS}`);
const columns = `{${HEADER.split(',').map((h) => `'${h.trim()}': 'VARCHAR'`).join(', ')}}`;

await loadPairs(
  `companies load via sync (${M(ROWS)} rows)`, 'companies', csv,
  `read_csv('${csv}', header = true, columns = ${columns}, auto_detect = false, quote = '"', escape = '"')`, 2,
  'bare DuckDB read_csv (explicit VARCHAR columns) into a table',
);

// Unzip, on its own: yauzl extraction of the one member vs copying the same number of bytes.
const unz = await paired(
  1,
  () => runNode(`import { extractAll } from '${url(join(dist, 'sync', 'formats', 'zip.js'))}';
      const t0 = performance.now(); await extractAll('${zip}', '${join(work, 'unzip')}'); console.log(JSON.stringify({ s: (performance.now() - t0) / 1000 }));`).result.s,
  () => {
    const t0 = performance.now();
    copyFileSync(csv, join(work, 'copy.csv'));
    rmSync(join(work, 'copy.csv'));
    return (performance.now() - t0) / 1000;
  },
);
rmSync(join(work, 'unzip'), { recursive: true, force: true });
pairLine({ measure: `companies unzip of the one-file zip (${fmt(statSync(zip).size / 1e9)} GB → ${fmt(statSync(csv).size / 1e9)} GB, reported separately)`, unit: 's', what: 'copying the CSV', target: 20, ...unz });

await loadPairs(
  `psc load via sync (${M(LINES)} lines)`, 'psc', pscFile,
  `read_json('${pscFile}', format = 'newline_delimited', columns = {company_number: 'VARCHAR', data: 'JSON'})`, 2,
  'bare DuckDB read_json (explicit columns) into a table',
);

// Process timings against the synced mirror.
const env = { PUBLICDATA_DATA_DIR: work, PUBLICDATA_CACHE_DIR: cacheDir, NO_COLOR: '1' };
const cli = join(repo, 'bin', 'publicdata.cjs');
const base = join(work, 'select1.mjs');
writeFileSync(base, `
  import { openDataset, query } from '${url(join(dist, 'src', 'mirror', 'db.js'))}';
  import { COMPANIES_INFO } from '${url(join(dist, 'src', 'domains', 'companies', 'datasets.js'))}';
  const conn = await openDataset(COMPANIES_INFO, '${mirrorDir}');
  process.stdout.write(JSON.stringify(await query(conn, 'SELECT 1 AS one')) + '\\n');`);
const probe = (args) => JSON.parse(spawnSync(process.execPath, args, { env: { ...process.env, ...env }, encoding: 'utf8' }).stdout);
// The probed company: the one on an individual's line near the middle of the file whose person is on other
// lines too (a live, non-ceased controller: not a corporate line, a statement or a ceased line), so
// `psc` and `network` have something to find.
const live = (j) => j % 17 !== 0 && j % 29 !== 0 && j % 7 !== 0;
let j0 = Math.floor(PEOPLE / 2);
while (j0 + 1 < PEOPLE && !(live(j0) && (j0 + PEOPLE >= LINES - 1 || live(j0 + PEOPLE)))) j0++;
const n = String(((j0 * 7 + Math.floor(j0 / PEOPLE)) % ROWS) + 1).padStart(8, '0');
const controlled = probe([cli, 'companies', 'psc', n, '--source', 'local', '--format', 'json']);
const network = probe([cli, 'companies', 'network', n, '--source', 'local', '--format', 'json']);
log(`company ${n}: ${controlled.data?.psc_count} PSCs; network of ${network.data?.network_size} companies`);
if (!controlled.data?.psc_count) throw new Error(`company ${n} has no PSC: the generator and the probe disagree`);
for (const [label, args, target] of [
  [`companies show ${n}`, ['companies', 'show', n], 1.5],
  [`companies psc ${n}`, ['companies', 'psc', n], 1.5],
  ['companies search "acme widgets"', ['companies', 'search', 'acme widgets'], 2],
  [`companies network ${n}`, ['companies', 'network', n], 2],
]) {
  const full = [cli, ...args, '--source', 'local', '--format', 'json'];
  const out = probe(full);
  if (out.error) throw new Error(`${label}: ${JSON.stringify(out.error)}`);
  const r = await paired(10, async () => (await timeProcess(full, env)).ms, async () => (await timeProcess([base], env)).ms);
  pairLine({ measure: `${label} process (median of 10)`, unit: 'ms', what: 'node process opening the mirror + SELECT 1 (median of 10)', target, ...r });
}
