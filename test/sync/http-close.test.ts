/**
 * `sync` against servers nobody here wrote, as users meet them: an HTTP/1.0-style server that ends the
 * connection after the body (python -m http.server, many proxies and CDN edges) while the disk, or
 * --limit-rate, is slower than the network; and no network at all.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runSync } from '../../src/sync-runner.js';
import type { SyncEvent } from '../../sync/types.js';
import { sqlOn } from '../support/mirror-helper.js';
import { isolatedEnv, json, runCli } from '../support/cli.js';
import { bigFile } from '../property/ppd-fixture.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const upstream = useUpstreamServer('pd-close-');

/** A port on 127.0.0.1 that nothing listens on (connections to it are refused). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

describe('sync over connections that close', () => {
  it('sync price-paid --from a server that closes after the body, with --limit-rate: every row loaded', async () => {
    const file = bigFile(700); // ~125 KB: the whole file and the FIN arrive before the capped reader is done
    upstream.server.set('/pp-complete.csv', file, { fault: { closeAfterBody: true, noLength: true } });
    const env = isolatedEnv({ CI: '1' });
    const r = await runCli(['sync', 'price-paid', '--from', `${upstream.server.url}/pp-complete.csv`, '--limit-rate', '1M', '--format', 'json'], { env });
    expect(r.code).toBe(0);
    expect(json(r).data[0]).toMatchObject({ dataset: 'price-paid', status: 'synced', rows_loaded: 700, rows_total: 700 });
    const [n] = await sqlOn(`${env.PUBLICDATA_DATA_DIR}/mirror/price_paid.duckdb`, 'SELECT count(DISTINCT id) AS n FROM price_paid');
    expect(n!.n).toBe(700);
  });

  it('--limit-rate takes bytes per second with k/M/G; nonsense is a usage error before any download', async () => {
    const n = upstream.server.requests.length;
    const r = await runCli(['sync', 'price-paid', '--from', `${upstream.server.url}/pp-complete.csv`, '--limit-rate', 'fast'], { env: isolatedEnv({ CI: '1' }) });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toContain('--limit-rate must be a number of bytes per second');
    expect(upstream.server.requests.length).toBe(n);
    const { parseRateOption } = await import('../../commands/sync-options.js');
    expect([parseRateOption('500k'), parseRateOption('2M'), parseRateOption('1.5m'), parseRateOption('1G'), parseRateOption('4096')]).toEqual([512_000, 2_097_152, 1_572_864, 1_073_741_824, 4096]);
    for (const bad of ['0', '-1', '2T', '']) expect(() => parseRateOption(bad)).toThrow();
  });
});

describe('sync with no network', () => {
  it('every dataset fails within a couple of short retries, each saying what it waits for', async () => {
    const port = await closedPort();
    const waits: number[] = [];
    const events: SyncEvent[] = [];
    const o = upstream.syncOptions();
    const names = ['bank-holidays', 'hpi', 'council-tax', 'listed-buildings', 'conservation-areas', 'price-paid'];
    const reports = await runSync(names, {
      mirrorDir: o.mirrorDir, cacheDir: o.cacheDir,
      env: { PUBLICDATA_UPSTREAM_BASE: `http://127.0.0.1:${port}` },
      sleep: async (ms) => void waits.push(ms),
      progress: (e) => events.push(e),
    });
    expect(reports.map((r) => r.status)).toEqual(names.map(() => 'failed'));
    for (const r of reports) expect(r.error).toMatch(new RegExp(`^${r.dataset}: cannot reach http://127\\.0\\.0\\.1:${port}/\\S+ \\(3 attempts\\): connection refused by 127\\.0\\.0\\.1:${port}$`));
    const retries = events.filter((e): e is Extract<SyncEvent, { type: 'retry' }> => e.type === 'retry');
    expect(retries.map((e) => `${e.dataset} ${e.attempt}/${e.attempts}`)).toEqual(names.flatMap((d) => [`${d} 2/3`, `${d} 3/3`]));
    // at most ~1.9 s of waiting per dataset (500 ms then 1 s, jitter up to +25%), where the default
    // budget of 5 retries from 500 ms would wait about 15 s
    expect(Math.max(...names.map((_, i) => waits[2 * i]! + waits[2 * i + 1]!))).toBeLessThanOrEqual(1875);
  });

  it('a terminal is told what the sync waits for', async () => {
    const { createProgressReporter } = await import('../../sync/progress.js');
    let out = '';
    const report = createProgressReporter({ stream: { write: (s: string) => ((out += s), true), isTTY: true, columns: 200 } as unknown as NodeJS.WritableStream });
    report({ type: 'retry', dataset: 'hpi', url: 'http://127.0.0.1:9/x', attempt: 2, attempts: 3, delayMs: 512, reason: 'connection refused by 127.0.0.1:9' });
    expect(out).toBe('\rhpi: connection refused by 127.0.0.1:9; retry 1 of 2 in 0.5s…');
  });
});
