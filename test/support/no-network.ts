/**
 * `sync` with no network (test/sync/http-close.test.ts and the domains' no-network tests): the named
 * datasets synced against a port nothing listens on each fail within a couple of short retries, each retry
 * saying what it waits for.
 */
import { createServer } from 'node:net';
import { expect } from 'vitest';
import { runSync } from '../../src/sync-runner.js';
import type { SyncEvent } from '../../sync/types.js';

/** A port on 127.0.0.1 that nothing listens on (connections to it are refused). */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

/** Sync `names` with no network (into `o`'s directories) and check how each one fails. */
export async function expectNoNetworkFailures(names: readonly string[], o: { mirrorDir: string; cacheDir: string }): Promise<void> {
  const port = await closedPort();
  const waits: number[] = [];
  const events: SyncEvent[] = [];
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
}
