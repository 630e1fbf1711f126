#!/usr/bin/env node
// Batch core of `publicdata tax take-home --batch`: per NDJSON line, JSON.parse, validate the body against the
// route's field specs, run the local take-home handler, JSON.stringify the envelope. Target: 100,000 lines a
// second, i.e. <= 10 us/line all in. Baseline (same run): JSON.parse of the same lines + JSON.stringify of
// ready-made answers (the ratio shows what validation and calculation add on top of the unavoidable JSON). Needs the built dist/ (npm run bench builds first).
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = process.env.BENCH_ROOT ?? join(dirname(fileURLToPath(import.meta.url)), '..');
const imp = (p) => import(pathToFileURL(join(root, 'dist', 'src', p)).href);
const { validateBodyFields } = await imp('contract/validate.js');
const { loadDomains, matchRoute } = await imp('registry.js');
await loadDomains(['tax']); // the registry imports a domain's manifest when first asked (src/registry.ts)
const { route } = matchRoute('POST', '/v1/tax/take-home/calculate');
const handler = await route.local.handler();
const ctx = { now: () => new Date('2026-11-21T12:00:00Z'), env: {}, mirrorDir: '/nonexistent', cacheDir: '/tmp' };

const N = Number(process.env.BENCH_LINES ?? 200_000);
const regions = ['england_wales_ni', 'scotland'];
const types = ['salary_sacrifice', 'net_pay', 'relief_at_source'];
const lines = [];
for (let i = 0; i < 1000; i++) {
  const body = { gross_income: 15_000 + ((i * 7919) % 185_000), region: regions[i % 2] };
  if (i % 3 === 0) body.student_loan_plans = ['plan_2'];
  if (i % 4 === 0) { body.pension_contribution_percent = 5; body.pension_type = types[i % 3]; }
  if (i % 5 === 0) body.tax_year = '2025-26';
  lines.push(JSON.stringify(body));
}

function run() {
  let bytes = 0;
  for (let i = 0; i < N; i++) {
    const body = validateBodyFields(route.body, JSON.parse(lines[i % 1000]));
    const env = handler({ params: {}, query: {}, body }, ctx);
    bytes += JSON.stringify(env).length;
  }
  return bytes;
}
// Baseline: the JSON work any implementation must do: parse the line, stringify a ready-made answer.
const answers = lines.map((l) => handler({ params: {}, query: {}, body: validateBodyFields(route.body, JSON.parse(l)) }, ctx));
function baseline() {
  let bytes = 0;
  for (let i = 0; i < N; i++) {
    JSON.parse(lines[i % 1000]);
    bytes += JSON.stringify(answers[i % 1000]).length;
  }
  return bytes;
}
const time = (f) => { const t = process.hrtime.bigint(); f(); return Number(process.hrtime.bigint() - t) / 1e3 / N; };
run(); baseline(); // warm up
// 7 pairs, each run right after its baseline; the median pairwise ratio is shown, the absolute target decides.
const { paired, pairLine, stats } = await import('./lib/pairs.mjs');
const r = await paired(7, () => time(run), () => time(baseline));
const TARGET = 10;
const ours = stats(r.a).median;
pairLine({
  measure: `tax take-home batch core (${Math.round(1e6 / ours).toLocaleString('en-GB')} lines/s)`,
  unit: 'us/line',
  what: 'JSON parse of the line + stringify of a ready answer',
  target: null,
  extraTarget: `<= ${TARGET} us/line`,
  extraPass: ours <= TARGET,
  ...r,
});
