/**
 * bench/lib/pairs.mjs `pairLine` (issue 38): a line measured on a busy machine never says PASS, a load
 * line with fewer than its pairs says why, and every line prints the load average beside the ratio.
 * The load average and core count are given, so the verdicts do not depend on this machine's load.
 */
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the bench, without types
import { childEnv, cpuSample, othersCores, pairLine } from '../../bench/lib/pairs.mjs';
import { readFileSync } from 'node:fs';

const lines: string[] = [];
const base = { measure: 'load', unit: 's', what: 'bare read', target: 2, print: (l: string) => lines.push(l), cores: 2 };
const saved = process.exitCode;
afterEach(() => {
  lines.length = 0;
  process.exitCode = saved;
});

describe('pairLine', () => {
  it('passes a quiet run of 3 pairs within the target, with the load average on the line', () => {
    // ratios 1.5, 1.8, 1.6: median 1.6 <= 2
    const r = pairLine({ ...base, a: [3, 3.6, 3.2], b: [2, 2, 2], ratios: [1.5, 1.8, 1.6], loads: [0.5, 1.25], now: 0.75, minPairs: 3 });
    expect(r.pass).toBe(true);
    expect(lines[0]).toContain('ratio 1.60x');
    expect(lines[0]).toContain('| load avg 0.50–1.25 on 2 cores |');
    expect(lines[0].endsWith('| PASS')).toBe(true);
  });

  it('prints BUSY, not PASS, when any sampled load average is above the cores', () => {
    const r = pairLine({ ...base, a: [3], b: [2], ratios: [1.5], loads: [1, 2.5], now: 1 });
    expect(r.pass).toBe(false);
    expect(r.busy).toBe(true);
    expect(lines[0]).not.toContain('PASS');
    expect(lines[0]).toContain('| load avg 1.00–2.50 on 2 cores |');
    expect(lines[0]).toContain('| BUSY (load average above 2 cores: target met, not a pass)');
  });

  it('prints BUSY with the target missed on a busy machine, and leaves the exit code alone', () => {
    process.exitCode = 0;
    pairLine({ ...base, a: [9], b: [2], ratios: [4.5], loads: [25.1], now: 24 });
    expect(lines[0]).toContain('| BUSY (load average above 2 cores: target missed, not a pass)');
    expect(process.exitCode).toBe(0);
  });

  it("other processes' CPU decides where it was measured: the bench's own load average does not make it BUSY", () => {
    // a sync keeping both cores busy raises the load average to 3.1 by itself; others used 0.1 cores
    const quiet = pairLine({ ...base, a: [3, 3.2, 3.1], b: [2, 2, 2], ratios: [1.5, 1.6, 1.55], loads: [0.4, 3.1], others: [0.05, 0.1, 0.02], now: 2.9, minPairs: 3 });
    expect(quiet.pass).toBe(true);
    expect(lines[0]).toContain("| other processes' CPU up to 0.10 cores | load avg 0.40–3.10 on 2 cores |");
    expect(lines[0].endsWith('| PASS')).toBe(true);
    // another process used 0.8 cores during one pair: BUSY whatever the load average says
    const busy = pairLine({ ...base, a: [3], b: [2], ratios: [1.5], loads: [0.2], others: [0.8], now: 0.3 });
    expect(busy.busy).toBe(true);
    expect(lines[1]).toContain('| BUSY (other processes used up to 0.80 cores, over 0.5: target met, not a pass)');
  });

  it('othersCores: the machine busy time less our own, in cores (values in clock ticks, counted by hand)', () => {
    // 2 cores, 200 ticks in all (100 a core); 150 busy ticks, 120 of them ours: others 30 ticks = 0.3 cores
    expect(othersCores({ busy: 1000, total: 5000, own: 10 }, { busy: 1150, total: 5200, own: 130 }, 2)).toBeCloseTo(0.3, 10);
    // everything busy was ours
    expect(othersCores({ busy: 0, total: 0, own: 0 }, { busy: 200, total: 200, own: 200 }, 2)).toBe(0);
    expect(othersCores(undefined, { busy: 1, total: 1, own: 0 }, 2)).toBe(0);
  });

  it.runIf(process.platform === 'linux')('cpuSample counts the CPU of the pids it is given (a server the bench keeps running) as its own; a pid gone is skipped', () => {
    // this process's user + system ticks, read here from /proc/self/stat (fields 14 and 15)
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const mine = Number(f[11]) + Number(f[12]);
    const plain = cpuSample([]);
    const twice = cpuSample([process.pid, 2 ** 22 + 1]);
    // named once more, this process counts twice: at least its ticks so far more than without it
    expect(twice.own - plain.own).toBeGreaterThanOrEqual(mine);
    expect(cpuSample([2 ** 22 + 1]).own - plain.own).toBeLessThan(mine + 1);
  });

  it('a figure shown for context has no target and no verdict, and never sets the exit code', () => {
    process.exitCode = 0;
    const r = pairLine({ ...base, target: null, shown: true, a: [9, 9, 9], b: [2, 2, 2], ratios: [4.5, 4.5, 4.5], now: 1 });
    expect(lines[0]).toBe('load: 9.00 s | baseline bare read: 2.00 s | ratio 4.50x (pairwise median; IQR 4.50–4.50, range 4.50–4.50, n=3) | load avg 1.00–1.00 on 2 cores | no target (shown for context)');
    expect([r.pass, process.exitCode]).toEqual([true, 0]);
  });

  it('a load line with fewer pairs than it needs says why and prints UNCONFIRMED, not PASS', () => {
    const r = pairLine({ ...base, a: [3], b: [2], ratios: [1.5], now: 0.5, minPairs: 3, fewPairsWhy: 'BENCH_LOAD_PAIRS=1' });
    expect(r.pass).toBe(false);
    expect(lines[0]).toContain('(one pair) [only 1 pair, fewer than 3: BENCH_LOAD_PAIRS=1]');
    expect(lines[0].endsWith('| UNCONFIRMED (target met)')).toBe(true);
  });

  it('fails a quiet run over the target and sets the exit code', () => {
    process.exitCode = 0;
    pairLine({ ...base, a: [5, 5, 5], b: [2, 2, 2], ratios: [2.5, 2.5, 2.5], now: 1, minPairs: 3 });
    expect(lines[0].endsWith('| FAIL')).toBe(true);
    expect(process.exitCode).toBe(1);
  });
});

describe('childEnv', () => {
  it('this process environment with the given values over it; one given as undefined is removed', () => {
    process.env.PD_BENCH_TEST_A = 'a';
    process.env.PD_BENCH_TEST_B = 'b';
    try {
      const e = childEnv({ PD_BENCH_TEST_A: undefined, PD_BENCH_TEST_C: 'c' });
      expect('PD_BENCH_TEST_A' in e).toBe(false);
      expect(e.PD_BENCH_TEST_B).toBe('b');
      expect(e.PD_BENCH_TEST_C).toBe('c');
      expect(process.env.PD_BENCH_TEST_A).toBe('a');
    } finally {
      delete process.env.PD_BENCH_TEST_A;
      delete process.env.PD_BENCH_TEST_B;
    }
  });
});
