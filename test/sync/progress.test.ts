import { describe, expect, it } from 'vitest';
import { createProgressReporter } from '../../sync/progress.js';
import type { SyncReport } from '../../sync/types.js';

/** A reporter over a string, with a clock the test moves (`tick(ms)`) instead of waiting. */
function sink(tty: boolean) {
  let out = '';
  let t = 1_000_000;
  const stream = { write: (s: string) => ((out += s), true), isTTY: tty, columns: 120 } as unknown as NodeJS.WritableStream;
  return { report: createProgressReporter({ stream, now: () => t }), out: () => out, tick: (ms: number) => void (t += ms) };
}

const report: SyncReport = {
  dataset: 'price-paid', status: 'synced', mode: 'incremental', rows_loaded: 43, rows_rejected: 1, rows_total: 327,
  bytes_downloaded: 8_000, duration_ms: 1500, as_of: '2026-03-31', files: [],
};

describe('progress reporter', () => {
  it('draws a bar with bytes, rate and ETA on a TTY, then the load percentage, then a summary', async () => {
    const s = sink(true);
    s.report({ type: 'phase', dataset: 'price-paid', phase: 'download' });
    s.tick(120); // redraws are throttled to 10 a second
    s.report({ type: 'download', dataset: 'price-paid', file: 'pp-complete.csv', bytes: 1024 * 1024 * 512, total: 1024 * 1024 * 1024 * 5, rate: 1024 * 1024 * 40 });
    s.tick(120);
    s.report({ type: 'phase', dataset: 'price-paid', phase: 'load' });
    s.tick(120);
    s.report({ type: 'load', dataset: 'price-paid', percentage: 50 });
    s.report({ type: 'done', dataset: 'price-paid', report });
    const out = s.out();
    expect(out).toContain('pp-complete.csv [##');
    expect(out).toContain('512 MB / 5.0 GB');
    expect(out).toContain('40.0 MB/s');
    expect(out).toMatch(/ETA \d/);
    expect(out).toContain('loading [############............] 50%');
    expect(out).toMatch(/\rprice-paid: synced \(incremental update\) 43 rows loaded, 1 rejected, 327 in the mirror; 7.8 KB downloaded in 1.5s; as of 2026-03-31\n$/);
  });

  it('a status line with a share of units done fills its bar as they are done (a food hygiene load: files of the total)', () => {
    const s = sink(true);
    s.report({ type: 'status', dataset: 'example', text: 'files 1/4, 3 KB read', share: { done: 1, total: 4 } });
    s.report({ type: 'status', dataset: 'example', text: 'files 3/4, 9 KB read', share: { done: 3, total: 4 } });
    s.report({ type: 'status', dataset: 'example', text: 'no share' });
    // 24 cells: 1/4 is 6 filled, 3/4 is 18
    expect(s.out()).toContain(`\rexample: [${'#'.repeat(6)}${'.'.repeat(18)}] 25% files 1/4, 3 KB read`);
    expect(s.out()).toContain(`\rexample: [${'#'.repeat(18)}${'.'.repeat(6)}] 75% files 3/4, 9 KB read`);
    expect(s.out()).toContain('\rexample: no share');
    expect(sink(false).out()).toBe('');
  });

  it('prints only the summary line (or the failure) when not a TTY', () => {
    const s = sink(false);
    s.report({ type: 'phase', dataset: 'price-paid', phase: 'download' });
    s.report({ type: 'download', dataset: 'price-paid', file: 'x', bytes: 1, total: 2, rate: 1 });
    s.report({ type: 'load', dataset: 'price-paid', percentage: 50 });
    s.report({ type: 'done', dataset: 'price-paid', report: { ...report, status: 'up_to_date' } });
    s.report({ type: 'failed', dataset: 'hpi', error: new Error('hpi: HTTP 500') });
    expect(s.out()).toBe('price-paid: already up to date (327 rows, as of 2026-03-31)\nhpi: sync failed: hpi: HTTP 500\n');
  });
});
