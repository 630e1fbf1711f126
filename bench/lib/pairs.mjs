// Paired measurement for every bench: the measured command (A) and its baseline (B) run in turn,
// A B A B ..., so that load from other work on a shared machine hits both alike, and the figure that
// decides PASS/FAIL is the median of the pairwise ratios A_i / B_i, printed with its spread.
// See bench/README.md ("How a line is measured").
import { spawn } from 'node:child_process';
import { availableParallelism, cpus, loadavg } from 'node:os';

/** The cores this machine has (what the 1-minute load average is compared with). */
export const CORES = typeof availableParallelism === 'function' ? availableParallelism() : cpus().length;

/** The 1-minute load average now (os.loadavg(): /proc/loadavg's first figure on Linux). */
export const loadNow = () => loadavg()[0];

/**
 * Pairs of a load line (a sync against its bare baseline): BENCH_LOAD_PAIRS, default 3. Fewer than 3 is
 * allowed for quick runs, and the line then says so and cannot print PASS (pairLine's `minPairs`).
 */
export const LOAD_PAIRS = Number(process.env.BENCH_LOAD_PAIRS ?? 3);

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
  const loads = [];
  for (let i = 0; i < n; i++) {
    loads.push(loadNow());
    bs.push(await b());
    as.push(await a());
    loads.push(loadNow());
  }
  return { a: as, b: bs, ratios: as.map((x, i) => x / bs[i]), loads };
}

const fmt = (x, d = 2) => (Math.abs(x) >= 100 ? x.toFixed(1) : x.toFixed(d));

/**
 * One bench line (bench/README.md format):
 *   <measure>: <A> <unit> | baseline <what>: <B> <unit> | ratio <r>x (pairs: IQR lo–hi, n=N) | load avg lo–hi on C cores | target <= t | PASS
 * `ratios` decides: the median pairwise ratio is compared with the target (`<=`, `<` or `>=`).
 * `value`/`base` are the medians of the two series (or given directly for single-run measures).
 * `loads`: the 1-minute load averages sampled around the pairs (paired() returns them); the load now is
 * added. When any of them is above the core count the line was measured on a busy machine: it prints
 * `BUSY` (with whether the target was met) instead of PASS or FAIL, since neither can be trusted then.
 * `minPairs` (3 for a load line): with fewer pairs the line says why (`fewPairsWhy`) and prints
 * `UNCONFIRMED` where it would print PASS. `now`, `cores`, `print`: the load average now, the core count and
 * the output (tests give them).
 */
export function pairLine({ measure, unit, a, b, ratios, what, target, cmp = '<=', extraTarget, extraPass = true, decimals = 2, loads = [], minPairs = 1, fewPairsWhy, now = loadNow(), cores = CORES, print = console.log }) {
  const r = stats(ratios);
  const av = stats(a).median;
  const bv = stats(b).median;
  const d = r.median < 0.1 ? 3 : decimals;
  // target null: the ratio is shown but an absolute target (extraTarget/extraPass) decides.
  const ratioOk = target == null || (cmp === '<' ? r.median < target : cmp === '>=' ? r.median >= target : r.median <= target);
  const met = ratioOk && extraPass;
  const la = stats([...loads, now]);
  const busy = la.max > cores;
  const few = r.n < minPairs;
  const spread = r.n > 1 ? ` (pairwise median; IQR ${r.p25.toFixed(d)}–${r.p75.toFixed(d)}, range ${r.min.toFixed(d)}–${r.max.toFixed(d)}, n=${r.n})` : ' (one pair)';
  const fewNote = few ? ` [only ${r.n} pair${r.n === 1 ? '' : 's'}, fewer than ${minPairs}: ${fewPairsWhy ?? 'BENCH_LOAD_PAIRS is set below 3'}]` : '';
  const load = ` | load avg ${la.min.toFixed(2)}–${la.max.toFixed(2)} on ${cores} cores`;
  const verdict = busy ? `BUSY (load average above ${cores} cores: target ${met ? 'met' : 'missed'}, not a pass)` : !met ? 'FAIL' : few ? 'UNCONFIRMED (target met)' : 'PASS';
  const line = `${measure}: ${fmt(av)} ${unit} | baseline ${what}: ${fmt(bv)} ${unit} | ratio ${r.median.toFixed(d)}x${spread}${fewNote}${load} | target ${[target == null ? '' : `${cmp} ${target}x`, extraTarget ?? ''].filter(Boolean).join(' and ')} | ${verdict}`;
  print(line);
  if (!busy && !met) process.exitCode = 1;
  return { pass: !busy && met && !few, ratio: r.median, busy, line };
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
