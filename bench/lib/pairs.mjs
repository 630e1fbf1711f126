// Paired measurement for every bench: the measured command (A) and its baseline (B) run in turn,
// A B A B ..., so that load from other work on a shared machine hits both alike, and the figure that
// decides PASS/FAIL is the median of the pairwise ratios A_i / B_i, printed with its spread.
// See bench/README.md ("How a line is measured").
import { spawn } from 'node:child_process';

/** Median, quartiles and extremes of a list of numbers. */
export function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => {
    if (s.length === 1) return s[0];
    const i = (s.length - 1) * p;
    const lo = Math.floor(i);
    return s[lo] + (s[Math.ceil(i)] - s[lo]) * (i - lo);
  };
  return { n: s.length, min: s[0], p25: q(0.25), median: q(0.5), p75: q(0.75), max: s[s.length - 1] };
}

/**
 * Run `a` and `b` alternately `n` times (after `warmup` unrecorded rounds), starting with the baseline.
 * Each function returns a number (ms, seconds, a rate ...) or a promise of one.
 * Returns the raw series and the pairwise ratios a_i / b_i.
 */
export async function paired(n, a, b, { warmup = 0 } = {}) {
  for (let i = 0; i < warmup; i++) {
    await b();
    await a();
  }
  const as = [];
  const bs = [];
  for (let i = 0; i < n; i++) {
    bs.push(await b());
    as.push(await a());
  }
  return { a: as, b: bs, ratios: as.map((x, i) => x / bs[i]) };
}

const fmt = (x, d = 2) => (Math.abs(x) >= 100 ? x.toFixed(1) : x.toFixed(d));

/**
 * One bench line (bench/README.md format):
 *   <measure>: <A> <unit> | baseline <what>: <B> <unit> | ratio <r>x (pairs: IQR lo–hi, n=N) | target <= t | PASS
 * `ratios` decides: the median pairwise ratio is compared with the target (`<=`, `<` or `>=`).
 * `value`/`base` are the medians of the two series (or given directly for single-run measures).
 */
export function pairLine({ measure, unit, a, b, ratios, what, target, cmp = '<=', extraTarget, extraPass = true, decimals = 2 }) {
  const r = stats(ratios);
  const av = stats(a).median;
  const bv = stats(b).median;
  const d = r.median < 0.1 ? 3 : decimals;
  // target null: the ratio is shown but an absolute target (extraTarget/extraPass) decides.
  const ratioOk = target == null || (cmp === '<' ? r.median < target : cmp === '>=' ? r.median >= target : r.median <= target);
  const pass = ratioOk && extraPass;
  const spread = r.n > 1 ? ` (pairwise median; IQR ${r.p25.toFixed(d)}–${r.p75.toFixed(d)}, range ${r.min.toFixed(d)}–${r.max.toFixed(d)}, n=${r.n})` : ' (one pair)';
  const line = `${measure}: ${fmt(av)} ${unit} | baseline ${what}: ${fmt(bv)} ${unit} | ratio ${r.median.toFixed(d)}x${spread} | target ${[target == null ? '' : `${cmp} ${target}x`, extraTarget ?? ''].filter(Boolean).join(' and ')} | ${pass ? 'PASS' : 'FAIL'}`;
  console.log(line);
  if (!pass) process.exitCode = 1;
  return { pass, ratio: r.median };
}

/** Wall time (ms) of one child process; rejects on a non-zero exit. */
export function timeProcess(args, { env = {}, cwd, stdin = 'ignore' } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: [stdin, 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${(err || out).slice(0, 2000)}`));
      else resolve({ ms, out, err });
    });
  });
}
