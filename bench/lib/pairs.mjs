// Paired measurement for every bench: the measured command (A) and its baseline (B) run in turn,
// A B A B ..., so that load from other work on a shared machine hits both alike, and the figure that
// decides PASS/FAIL is the median of the pairwise ratios A_i / B_i, printed with its spread.
// See bench/README.md ("How a line is measured").
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';

/** The cores this machine has (what the 1-minute load average is compared with). */
export const CORES = typeof availableParallelism === 'function' ? availableParallelism() : cpus().length;

/** The 1-minute load average now (os.loadavg(): /proc/loadavg's first figure on Linux). */
export const loadNow = () => loadavg()[0];

/**
 * A process's CPU time in clock ticks from /proc/<pid>/stat: user + system, with `children` its waited-for
 * children's too (after the name: state ppid ... utime stime cutime cstime are fields 12 to 15).
 */
export function procTicks(pid, children) {
  const st = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0);
}

/**
 * The machine's CPU time (non-idle, and in all) and this process's own with its waited-for children's, now,
 * in clock ticks (Linux: /proc/stat and /proc/self/stat); undefined elsewhere. Two samples give the CPU
 * other processes used in between (`othersCores`), which, unlike the load average, leaves out the bench's
 * own work: a sync keeping both cores busy does not make its own line look measured on a busy machine.
 */
export function cpuSample(pids = []) {
  try {
    const c = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = c[3] + (c[4] ?? 0);
    const total = c.slice(0, 8).reduce((x, y) => x + (y || 0), 0);
    let own = procTicks('self', true);
    // children the bench started and has not waited for yet (a server under test): their CPU is the bench's
    for (const pid of pids) {
      try {
        own += procTicks(pid, false);
      } catch {
        /* it has exited: its CPU is in cutime/cstime once waited for */
      }
    }
    return { busy: total - idle, total, own };
  } catch {
    return undefined;
  }
}

/** Cores' worth of CPU other processes used between two samples (0 when it cannot be told). */
export function othersCores(s0, s1, cores = CORES) {
  if (!s0 || !s1 || s1.total <= s0.total) return 0;
  return Math.max(0, (s1.busy - s0.busy - (s1.own - s0.own)) / ((s1.total - s0.total) / cores));
}

/** Other processes using more than this many cores on average during a pair make the line BUSY. */
export const OTHERS_MAX_CORES = 0.5;

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
 * Each function returns a number (ms, seconds, a rate ...) or a promise of one. `pids`: long-running
 * children of the bench (servers under test) whose CPU is the bench's own, not other processes'.
 * Returns the raw series and the pairwise ratios a_i / b_i.
 */
export async function paired(n, a, b, { warmup = 0, pids = [] } = {}) {
  for (let i = 0; i < warmup; i++) {
    await b();
    await a();
  }
  const as = [];
  const bs = [];
  const loads = [];
  const others = [];
  for (let i = 0; i < n; i++) {
    loads.push(loadNow());
    const s0 = cpuSample(pids);
    bs.push(await b());
    as.push(await a());
    loads.push(loadNow());
    if (s0) others.push(othersCores(s0, cpuSample(pids)));
  }
  return { a: as, b: bs, ratios: as.map((x, i) => x / bs[i]), loads, others };
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
 * `UNCONFIRMED` where it would print PASS. `shown`: a figure for context, printed with no target and no
 * verdict (and never failing the run). `now`, `cores`, `print`: the load average now, the core count and
 * the output (tests give them).
 */
export function pairLine({ measure, unit, a, b, ratios, what, target, cmp = '<=', extraTarget, extraPass = true, decimals = 2, loads = [], others = [], minPairs = 1, fewPairsWhy, shown = false, now = loadNow(), cores = CORES, print = console.log }) {
  const r = stats(ratios);
  const av = stats(a).median;
  const bv = stats(b).median;
  const d = r.median < 0.1 ? 3 : decimals;
  // target null: the ratio is shown but an absolute target (extraTarget/extraPass) decides.
  const ratioOk = target == null || (cmp === '<' ? r.median < target : cmp === '>=' ? r.median >= target : r.median <= target);
  const met = ratioOk && extraPass;
  const la = stats([...loads, now]);
  // the CPU other processes used during the pairs when it was measured (Linux); else the load average,
  // which also counts the bench's own work
  const othersMax = others.length ? Math.max(...others) : undefined;
  const busy = othersMax !== undefined ? othersMax > OTHERS_MAX_CORES : la.max > cores;
  const few = r.n < minPairs;
  const spread = r.n > 1 ? ` (pairwise median; IQR ${r.p25.toFixed(d)}–${r.p75.toFixed(d)}, range ${r.min.toFixed(d)}–${r.max.toFixed(d)}, n=${r.n})` : ' (one pair)';
  const fewNote = few ? ` [only ${r.n} pair${r.n === 1 ? '' : 's'}, fewer than ${minPairs}: ${fewPairsWhy ?? 'BENCH_LOAD_PAIRS is set below 3'}]` : '';
  const load = `${othersMax !== undefined ? ` | other processes' CPU up to ${othersMax.toFixed(2)} cores` : ''} | load avg ${la.min.toFixed(2)}–${la.max.toFixed(2)} on ${cores} cores`;
  const why = othersMax !== undefined ? `other processes used up to ${othersMax.toFixed(2)} cores, over ${OTHERS_MAX_CORES}` : `load average above ${cores} cores`;
  if (shown) {
    // a figure shown beside a target line for context (`shown: true`): no target, no verdict on it
    const line = `${measure}: ${fmt(av)} ${unit} | baseline ${what}: ${fmt(bv)} ${unit} | ratio ${r.median.toFixed(d)}x${spread}${load} | no target (shown for context)${busy ? ` | BUSY (${why})` : ''}`;
    print(line);
    return { pass: true, ratio: r.median, busy, line };
  }
  const verdict = busy ? `BUSY (${why}: target ${met ? 'met' : 'missed'}, not a pass)` : !met ? 'FAIL' : few ? 'UNCONFIRMED (target met)' : 'PASS';
  const line = `${measure}: ${fmt(av)} ${unit} | baseline ${what}: ${fmt(bv)} ${unit} | ratio ${r.median.toFixed(d)}x${spread}${fewNote}${load} | target ${[target == null ? '' : `${cmp} ${target}x`, extraTarget ?? ''].filter(Boolean).join(' and ')} | ${verdict}`;
  print(line);
  if (!busy && !met) process.exitCode = 1;
  return { pass: !busy && met && !few, ratio: r.median, busy, line };
}

/** This process's environment with `env` over it; a variable given as undefined is removed. */
export function childEnv(env = {}) {
  const out = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete out[k];
  return out;
}

/**
 * Node reads the certificates of NODE_EXTRA_CA_CERTS at every start, before any script runs: with a
 * system bundle of ~140 certificates (as in this project's sandboxes) that is ~35 ms of `node -e 0`'s ~60
 * ms, paid by a command and its baseline alike, so every start-up ratio is smaller where it is set. The
 * start-up and VAT-return benches add a line measured without it (no target, for context) when it is.
 */
export const EXTRA_CA = process.env.NODE_EXTRA_CA_CERTS ? 'NODE_EXTRA_CA_CERTS' : undefined;

/**
 * Where NODE_EXTRA_CA_CERTS is set: `args` against `node -e 0`, both without it, `n` pairs, printed as a line
 * for context (no target) named `<measure> without NODE_EXTRA_CA_CERTS (median of n)`. Nothing elsewhere.
 */
export async function pairedWithoutExtraCa(n, args, { measure, env = {}, warmup = 1 }) {
  if (!EXTRA_CA) return;
  const ms = async (a) => (await timeProcess(a, { env: { ...env, [EXTRA_CA]: undefined } })).ms;
  const r = await paired(n, () => ms(args), () => ms(['-e', '0']), { warmup });
  pairLine({ measure: `${measure} without ${EXTRA_CA} (median of ${n})`, unit: 'ms', what: `node -e 0 without ${EXTRA_CA}`, target: null, shown: true, ...r });
}

/** Wall time (ms) of one child process; rejects on a non-zero exit. */
export function timeProcess(args, { env = {}, cwd, stdin = 'ignore' } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { cwd, env: childEnv(env), stdio: [stdin, 'pipe', 'pipe'] });
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
