/**
 * `sync` against servers nobody here wrote, as users meet them: an HTTP/1.0-style server that ends the
 * connection after the body (python -m http.server, many proxies and CDN edges) while the disk, or
 * --limit-rate, is slower than the network; and no network at all.
 */
import { describe, expect, it } from 'vitest';
import { sqlOn } from '../support/mirror-helper.js';
import { isolatedEnv, json, runCli } from '../support/cli.js';
import { recordsCsv } from '../support/example-domain/records-gen.js';
import { expectNoNetworkFailures } from '../support/no-network.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const upstream = useUpstreamServer('pd-close-');

describe('sync over connections that close', () => {
  it('sync --from a server that closes after the body, with --limit-rate: every row loaded', async () => {
    const file = Buffer.from(recordsCsv(1, 3400)); // ~133 KB of invented records: the whole file and the FIN arrive before the capped reader is done
    expect(file.length).toBeGreaterThan(128 * 1024);
    upstream.server.set('/records-complete.csv', file, { fault: { closeAfterBody: true, noLength: true } });
    const env = isolatedEnv({ CI: '1' });
    const r = await runCli(['sync', 'example-records', '--from', `${upstream.server.url}/records-complete.csv`, '--limit-rate', '1M', '--format', 'json'], { env });
    expect(r.code).toBe(0);
    expect(json(r).data[0]).toMatchObject({ dataset: 'example-records', status: 'synced', rows_loaded: 3400, rows_total: 3400 });
    const [n] = await sqlOn(`${env.PUBLICDATA_DATA_DIR}/mirror/example_records.duckdb`, 'SELECT count(DISTINCT id) AS n FROM records');
    expect(n!.n).toBe(3400);
  });

  it('--limit-rate takes bytes per second with k/M/G; nonsense is a usage error before any download', async () => {
    const n = upstream.server.requests.length;
    const r = await runCli(['sync', 'example-records', '--from', `${upstream.server.url}/records-complete.csv`, '--limit-rate', 'fast'], { env: isolatedEnv({ CI: '1' }) });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toContain('--limit-rate must be a number of bytes per second');
    expect(upstream.server.requests.length).toBe(n);
    const { parseRateOption } = await import('../../commands/sync-options.js');
    expect([parseRateOption('500k'), parseRateOption('2M'), parseRateOption('1.5m'), parseRateOption('1G'), parseRateOption('4096')]).toEqual([512_000, 2_097_152, 1_572_864, 1_073_741_824, 4096]);
    for (const bad of ['0', '-1', '2T', '']) expect(() => parseRateOption(bad)).toThrow();
  });
});

describe('sync with no network', () => {
  // the real datasets' own modules: test/property/no-network.test.ts, test/calendar/no-network.test.ts
  it('every dataset fails within a couple of short retries, each saying what it waits for', async () => {
    await expectNoNetworkFailures(['example-records', 'example-events'], upstream.syncOptions());
  });

  it('a terminal is told what the sync waits for', async () => {
    const { createProgressReporter } = await import('../../sync/progress.js');
    let out = '';
    const report = createProgressReporter({ stream: { write: (s: string) => ((out += s), true), isTTY: true, columns: 200 } as unknown as NodeJS.WritableStream });
    report({ type: 'retry', dataset: 'example-records', url: 'http://127.0.0.1:9/x', attempt: 2, attempts: 3, delayMs: 512, reason: 'connection refused by 127.0.0.1:9' });
    expect(out).toBe('\rexample-records: connection refused by 127.0.0.1:9; retry 1 of 2 in 0.5s…');
  });
});
