#!/usr/bin/env node
// VAT return engine: 10,000 mixed transactions computed in process (target <= 50 ms), against the in-run
// baseline of JSON.parse of the same request body. Imports the compiled module: run `npm run build` first.
// One line on stdout in the format of bench/README.md; details on stderr.
import { calculateVatReturn } from '../dist/src/domains/tax/vat-return/handler.js';
import { mixedBody as genBody } from '../test/tax/vat-gen.mjs';

const TARGET_MS = 50;
const N = 10_000;

// The same deterministic generator as the tests (test/tax/vat-gen.mjs), with a partially exempt
// company that also has a fuel scale charge (more of the engine runs).
const BENCH_COMPANY = {
  vat_registration_number: 'XI123456789',
  vat_schemes: [{ scheme: 'standard', effective_from: '2020-01-01', effective_to: null }],
  partially_exempt: true,
  fuel_scale_charges: [{ fuel_type: 'diesel', co2_emissions: 143 }],
};
export const mixedBody = (n, seed = 42) => genBody(n, seed, BENCH_COMPANY);

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
  const { paired, pairLine, stats } = await import('./lib/pairs.mjs');
  const text = JSON.stringify(mixedBody(N));
  const runs = 15;
  // warm up both measures (JIT, shipped data files)
  for (let i = 0; i < 5; i++) calculateVatReturn(JSON.parse(text), 'summary');
  const bodies = Array.from({ length: runs }, () => JSON.parse(text));
  let k = 0;
  const r = await paired(
    runs,
    () => {
      const t0 = performance.now();
      const out = calculateVatReturn(bodies[k++], 'summary');
      if (out.scheme_summary[0].transaction_count !== N) throw new Error('bench: wrong transaction count');
      return performance.now() - t0;
    },
    () => {
      const t0 = performance.now();
      JSON.parse(text);
      return performance.now() - t0;
    },
  );
  const e = stats(r.a).median;
  pairLine({ measure: 'vat-return 10k in-process', unit: 'ms', what: 'JSON.parse of the body', target: null, ...r, extraTarget: `<= ${TARGET_MS} ms`, extraPass: e <= TARGET_MS, decimals: 1 });
  console.error(`vat-return bench: ${runs} pairs, body ${(text.length / 1e6).toFixed(2)} MB, engine median ${e.toFixed(1)} ms (best ${Math.min(...r.a).toFixed(1)}), rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
}

// The whole CLI run: `publicdata tax vat-return --body FILE --format json` on the same 10k body,
// against `node -e 0`: 10 pairs, the median pairwise ratio decides. Target <= 2.5x (issue 37).
if (isMain) {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { join, dirname } = await import('node:path');
  const { fileURLToPath } = await import('node:url');
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const work = join(root, 'bench', '.work');
  mkdirSync(work, { recursive: true });
  const file = join(work, 'vat-return-10k.json');
  writeFileSync(file, JSON.stringify(mixedBody(N)));
  const bin = join(root, 'bin', 'publicdata.cjs');
  const { paired, pairedWithoutExtraCa, pairLine, timeProcess } = await import('./lib/pairs.mjs');
  const ms = async (args) => (await timeProcess(args, { env: { NO_COLOR: '1' } })).ms;
  const args = [bin, 'tax', 'vat-return', '--body', file, '--format', 'json'];
  const r = await paired(10, () => ms(args), () => ms(['-e', '0']), { warmup: 1 });
  pairLine({ measure: 'vat-return 10k CLI run (--body, JSON out, median of 10)', unit: 'ms', what: 'node -e 0', target: 2.5, ...r });
  // node's own start without the extra CA certificates (bench/lib/pairs.mjs EXTRA_CA), for context
  await pairedWithoutExtraCa(10, args, { measure: 'vat-return 10k CLI run', env: { NO_COLOR: '1' } });
}
