#!/usr/bin/env node
// `npm run check:domains`: a domain is its folder, its registry line and its own places, and nothing else
// knows it. In scratch copies of the repository (its files as git lists them, plus a symlink to
// node_modules) each domain is removed in turn (src/domains/<d>/, its line in src/registry.ts, test/<d>/,
// test/fixtures/<d>/, data/<d>/, docs/<d>.md and docs/<d>-*.md, bench/<d>.bench.mjs and bench/<d>-*.bench.mjs)
// and the rest must typecheck; then, in one copy with every domain removed, the shared tests (every test
// file outside a domain's folder) must pass. A shared file that names a domain, imports it or reads its
// files fails one of the two. docs/architecture.md "A new domain touches" is produced from the same count
// (the block between the check:domains markers): `--write` rewrites it, and the check fails when it is
// stale.
//
//   node scripts/check-domains.mjs            the check (CI)
//   node scripts/check-domains.mjs --write    rewrite the block in docs/architecture.md, then check
//   node scripts/check-domains.mjs --count    print what each domain touches, nothing else
//   --each      also run the shared tests once per removed domain (the slow, exact form: see docs/architecture.md)
//   --no-typecheck  skip the typechecks (a quick look at the shared tests)
//   --only a,b  only these domains      --jobs N  copies checked at a time (default 2)      --keep  keep the copies
//
// Why every domain removed at once for the shared tests: a shared test that passes with no real domain
// passes with any one removed unless one domain needs another at run time (a call through `execute`),
// which --each covers; one run instead of ten keeps CI short (times in docs/architecture.md).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const REGISTRY = 'src/registry.ts';
const DOC = 'docs/architecture.md';
const BEGIN = '<!-- check:domains begin: written by `npm run check:domains -- --write`; do not edit by hand -->';
const END = '<!-- check:domains end -->';
// a domain's line in src/registry.ts: `{ name: 'tax', load: () => import('./domains/tax/index.js') },`
const LINE = /^\{ name: '([a-z0-9-]+)', load: \(\) => import\('\.\/domains\/\1\/index\.js'\)(?:, .*)? \},$/;

/**
 * Shared test files that still use a real domain as their example, and so fail without it (file -> the
 * domains it names; "*": any), in scripts/check-domains-leaks.json: each is a file to rewrite on the
 * example domain or to split into the domains' folders (issue 33). A copy without a domain goes without
 * the listed files that name it, so the check holds every other file; `--verify-leaks` fails on a listed
 * file that passes without any domain (take it off the list).
 */
export const KNOWN_LEAKS = JSON.parse(readFileSync(join(root, 'scripts', 'check-domains-leaks.json'), 'utf8'));

const args = process.argv.slice(2);
const flag = (f) => args.includes(f);
const opt = (f) => (args.includes(f) ? args[args.indexOf(f) + 1] : undefined);

/** The repository's files: tracked, plus new files not ignored (a local run sees uncommitted work). */
export function repoFiles() {
  const r = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ls-files failed: ${r.stderr}`);
  return [...new Set(r.stdout.split('\0').filter(Boolean))].filter((f) => existsSync(join(root, f)) && statSync(join(root, f)).isFile()).sort();
}

/** The domains, in registry order. */
export function registryDomains() {
  return readFileSync(join(root, REGISTRY), 'utf8').split('\n').flatMap((l) => (LINE.exec(l.trim()) ? [LINE.exec(l.trim())[1]] : []));
}

/** A domain's places, by convention: what removing it takes away (the registry line is separate). */
export const PLACES = [
  ['src/domains/<d>/', (d, f) => f.startsWith(`src/domains/${d}/`)],
  ['test/<d>/', (d, f) => f.startsWith(`test/${d}/`)],
  ['test/fixtures/<d>/', (d, f) => f.startsWith(`test/fixtures/${d}/`)],
  ['data/<d>/', (d, f) => f.startsWith(`data/${d}/`)],
  ['docs/<d>.md, docs/<d>-*.md', (d, f) => f === `docs/${d}.md` || (f.startsWith(`docs/${d}-`) && f.endsWith('.md') && !f.includes('/', 5))],
  ['bench/<d>.bench.mjs, bench/<d>-*.bench.mjs, bench/lib/<d>-*.mjs', (d, f) => f === `bench/${d}.bench.mjs` || (f.startsWith(`bench/${d}-`) && f.endsWith('.bench.mjs')) || (f.startsWith(`bench/lib/${d}-`) && f.endsWith('.mjs'))],
];

/** Per domain: its files in each place (the registry line counted as one). */
export function countDomains(files = repoFiles(), domains = registryDomains()) {
  return domains.map((d) => {
    const places = PLACES.map(([label, has]) => ({ label, files: files.filter((f) => has(d, f)) }));
    const total = places.reduce((n, p) => n + p.files.length, 0) + 1;
    return { domain: d, places, total };
  });
}

/** The block of docs/architecture.md: one row per domain, produced from countDomains. */
export function docBlock(counts) {
  const head = ['domain', ...PLACES.map(([l]) => (/^(docs|bench)\//.test(l) ? l.split('/')[0] : `\`${l}\``)), 'registry', 'total'];
  const rows = counts.map((c) => [`\`${c.domain}\``, ...c.places.map((p) => String(p.files.length)), '1 line', String(c.total)]);
  const sum = counts.reduce((n, c) => n + c.total, 0);
  return [
    BEGIN,
    `What each domain touches today, counted by \`scripts/check-domains.mjs\` from the repository's files (${counts.length} domains, ${sum} files and registry lines in all). Shared test files still known to need a real domain (\`scripts/check-domains-leaks.json\`): ${Object.keys(KNOWN_LEAKS).length}.`,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    END,
  ].join('\n');
}

function docWithBlock(text, block) {
  const a = text.indexOf(BEGIN);
  const b = text.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${DOC} has no check:domains block (the markers)`);
  return text.slice(0, a) + block + text.slice(b + END.length);
}

function printCounts(counts) {
  for (const c of counts) {
    const parts = c.places.filter((p) => p.files.length).map((p) => `${p.label.split(',')[0].replace(/<d>.*$/, '').replace(/^(docs|bench)\/$/, '$1') || p.label} ${p.files.length}`.replace(/^(src\/domains|test|test\/fixtures|data)\/ /, `$1/${c.domain}/ `));
    console.log(`${c.domain}: touches ${c.total}: ${parts.join(', ')}, ${REGISTRY} 1 line`);
  }
}

/** A scratch copy of `files` with the domains `removed` taken out (places and registry lines). */
function scratch(base, name, files, removed, counts, keepLeaks = false) {
  const dir = join(base, name);
  const gone = new Set(counts.filter((c) => removed.includes(c.domain)).flatMap((c) => c.places.flatMap((p) => p.files)));
  if (!keepLeaks && removed.length) {
    for (const [f, ds] of Object.entries(KNOWN_LEAKS)) if (ds.includes('*') || ds.some((d) => removed.includes(d))) gone.add(f);
  }
  for (const f of files) {
    if (gone.has(f)) continue;
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    cpSync(join(root, f), join(dir, f));
  }
  const reg = readFileSync(join(dir, REGISTRY), 'utf8').split('\n').filter((l) => !(LINE.test(l.trim()) && removed.includes(LINE.exec(l.trim())[1])));
  writeFileSync(join(dir, REGISTRY), reg.join('\n'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

function run(cmd, argv, cwd, env = {}) {
  return new Promise((resolve) => {
    const t = Date.now();
    const p = spawn(cmd, argv, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (b) => (out += b));
    p.stderr.on('data', (b) => (out += b));
    p.on('close', (code) => resolve({ code, out, secs: (Date.now() - t) / 1000 }));
  });
}

const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const typecheck = (dir) => run(process.execPath, [TSC, '-p', 'tsconfig.json', '--noEmit', '--incremental', '--tsBuildInfoFile', '.check-domains.tsbuildinfo'], dir);

/** Test folders that belong to no domain (test/<x>/ for x not a domain, fixtures and support aside). */
function sharedTestDirs(files, domains) {
  const dirs = new Set(files.filter((f) => f.startsWith('test/') && f.endsWith('.test.ts')).map((f) => f.split('/')[1]));
  return [...dirs].filter((d) => !domains.includes(d) && d !== 'fixtures' && d !== 'support').sort().map((d) => `test/${d}`);
}

/** Run `jobs` of the async thunks at a time. */
async function pool(thunks, jobs) {
  const out = new Array(thunks.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(jobs, thunks.length) }, async () => {
    while (next < thunks.length) {
      const i = next++;
      out[i] = await thunks[i]();
    }
  }));
  return out;
}

/** The failed test files of a vitest JSON report. */
function failedFiles(reportFile, dir) {
  if (!existsSync(reportFile)) return undefined;
  const r = JSON.parse(readFileSync(reportFile, 'utf8'));
  return r.testResults.filter((t) => t.status !== 'passed').map((t) => t.name.slice(dir.length + 1)).sort();
}

async function sharedRun(dir, shared, env) {
  const report = join(dir, '.check-domains-vitest.json');
  const r = await run(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...shared, '--reporter=dot', '--reporter=json', `--outputFile.json=${report}`], dir, env);
  return { ...r, failed: failedFiles(report, dir) };
}

async function main() {
  const started = Date.now();
  const files = repoFiles();
  const all = registryDomains();
  const only = opt('--only')?.split(',');
  for (const d of only ?? []) if (!all.includes(d)) throw new Error(`--only: no domain '${d}' in ${REGISTRY}`);
  const counts = countDomains(files, all);
  printCounts(counts);
  if (flag('--count')) return 0;

  // The doc block: rewritten with --write, else it must be current.
  const doc = readFileSync(join(root, DOC), 'utf8');
  const want = docWithBlock(doc, docBlock(counts));
  let failed = 0;
  if (flag('--write')) {
    if (want !== doc) writeFileSync(join(root, DOC), want);
    console.log(`${DOC}: block ${want !== doc ? 'rewritten' : 'current'}`);
  } else if (want !== doc) {
    console.log(`FAIL ${DOC}: the "A new domain touches" block is stale; run npm run check:domains -- --write`);
    failed++;
  }

  const jobs = Math.max(1, Number(opt('--jobs') ?? 2));
  const domains = only ?? all;
  const base = mkdtempSync(join(tmpdir(), 'pd-check-domains-'));
  try {
    // 1. Each domain removed in turn: the rest typechecks. A full typecheck once seeds tsc's incremental
    //    state, copied into each scratch, so each domain's check re-checks only what its removal changed.
    const seed = scratch(base, '_all', files, [], counts);
    const s = flag('--no-typecheck') ? { code: 0, secs: 0, out: '' } : await typecheck(seed);
    console.log(`typecheck, every domain present: ${s.code === 0 ? 'ok' : 'FAIL'} (${s.secs.toFixed(1)} s)`);
    if (s.code !== 0) {
      console.log(s.out.trim());
      return 1;
    }
    const info = flag('--no-typecheck') ? Buffer.alloc(0) : readFileSync(join(seed, '.check-domains.tsbuildinfo'));
    const results = flag('--no-typecheck') ? [] : await pool(domains.map((d) => async () => {
      const dir = scratch(base, d, files, [d], counts);
      writeFileSync(join(dir, '.check-domains.tsbuildinfo'), info);
      const r = await typecheck(dir);
      console.log(`without ${d}: typecheck ${r.code === 0 ? 'ok' : 'FAIL'} (${r.secs.toFixed(1)} s)`);
      if (r.code !== 0) console.log(r.out.trim().split('\n').slice(0, 30).map((l) => `  ${l}`).join('\n'));
      return r.code === 0;
    }), jobs);
    failed += results.filter((ok) => !ok).length;
    const none = scratch(base, '_none', files, all, counts);
    writeFileSync(join(none, '.check-domains.tsbuildinfo'), info);
    const n = flag('--no-typecheck') ? { code: 0, secs: 0, out: '' } : await typecheck(none);
    console.log(`without any domain: typecheck ${n.code === 0 ? 'ok' : 'FAIL'} (${n.secs.toFixed(1)} s)`);
    if (n.code !== 0) {
      console.log(n.out.trim().split('\n').slice(0, 30).map((l) => `  ${l}`).join('\n'));
      failed++;
    }

    // 2. The shared tests, every domain removed (and with --each, each domain removed in turn).
    const shared = sharedTestDirs(files, all);
    const known = Object.keys(KNOWN_LEAKS).sort();
    const runs = [{ name: 'every domain', removed: all }, ...(flag('--each') ? domains.map((d) => ({ name: d, removed: [d] })) : [])];
    const outcomes = await pool(runs.map((x) => async () => {
      const dir = x.removed === all ? none : existsSync(join(base, x.removed[0])) ? join(base, x.removed[0]) : scratch(base, x.removed[0], files, x.removed, counts);
      const expected = known.filter((f) => x.removed === all || KNOWN_LEAKS[f].includes('*') || KNOWN_LEAKS[f].includes(x.removed[0]));
      // the shared tests are told which domains the copy lacks (test/cli/commands-80.test.ts leaves out the
      // CLI's own examples that name one of them; a normal run leaves out none)
      const r = await sharedRun(dir, shared, { PUBLICDATA_CHECK_DOMAINS_REMOVED: x.removed.join(',') });
      const ok = r.code === 0 && r.failed?.length === 0;
      console.log(`shared tests (${shared.join(' ')}), without ${x.name}: ${ok ? 'ok' : 'FAIL'} (${r.secs.toFixed(1)} s; ${expected.length} known leaks removed with it)`);
      if (!ok) {
        if (r.failed?.length) console.log(`  failing: ${r.failed.join(', ')} (a shared test that needs a domain: make it domain-free, or move it into test/<domain>/)`);
        else console.log(r.out.trim().split('\n').slice(-40).map((l) => `  ${l}`).join('\n'));
      }
      return ok;
    }), jobs);
    failed += outcomes.filter((ok) => !ok).length;

    // 3. A known leak that no longer needs its domains comes off the list (with --verify-leaks: slow).
    if (flag('--verify-leaks')) {
      const dir = scratch(base, '_leaks', files, all, counts, true);
      for (const f of known) {
        const r = await sharedRun(dir, [f], {});
        if (r.code === 0) {
          console.log(`FAIL ${f} passes without any domain: take it off scripts/check-domains-leaks.json`);
          failed++;
        }
      }
    }
    if (known.length) console.log(`known leaks (scripts/check-domains-leaks.json): ${known.length} shared test files still use a real domain`);
  } finally {
    if (flag('--keep')) console.log(`scratch copies kept in ${base}`);
    else rmSync(base, { recursive: true, force: true });
  }
  console.log(`check:domains: ${failed ? `${failed} failure(s)` : 'ok'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return failed ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then((code) => (process.exitCode = code), (e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  });
}
