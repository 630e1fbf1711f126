/**
 * The conformance samples, gathered from every domain's `test/<domain>/samples.ts` (a new domain adds its
 * own file beside its tests; nothing here changes): one valid call per route, some calls that answer
 * errors, and the fixture-mirror syncs of the datasets its routes read. The serve conformance test runs
 * each call through `publicdata serve` and the live client and compares with `--source local`; it fails
 * when a route has no sample, or a domain's file carries another domain's route.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { closeAll } from '../../src/mirror/db.js';
import { pathToFileURL } from 'node:url';
import type { DomainSamples, Sample } from './samples-types.js';

export type { Sample } from './samples-types.js';

const TEST_DIR = join(__dirname, '..');

/** Each test/<folder>/samples.ts, by folder name, in name order. */
export const DOMAIN_SAMPLES: ReadonlyMap<string, DomainSamples> = new Map(
  await Promise.all(
    readdirSync(TEST_DIR)
      .filter((d) => existsSync(join(TEST_DIR, d, 'samples.ts')))
      .sort()
      .map(async (d) => [d, ((await import(pathToFileURL(join(TEST_DIR, d, 'samples.ts')).href)) as { samples: DomainSamples }).samples] as const),
  ),
);

const all = [...DOMAIN_SAMPLES.values()];
export const ROUTE_SAMPLES: readonly Sample[] = all.flatMap((s) => s.routes);
export const ERROR_SAMPLES: readonly Sample[] = all.flatMap((s) => s.errors ?? []);
/** The datasets buildFixtureMirror syncs. */
export const FIXTURE_DATASETS: readonly string[] = all.flatMap((s) => s.datasets ?? []);

/**
 * Sync every mirror dataset the samples need into `<dataDir>/mirror` from the fixtures. Each dataset is
 * its own DuckDB file with its own lock, so the domains' syncs run side by side: a small sync spends most
 * of its time waiting on DuckDB and fsync, and the waits overlap.
 */
export async function buildFixtureMirror(dataDir: string): Promise<string> {
  const dirs = { dataDir, mirror: join(dataDir, 'mirror'), cacheDir: join(dataDir, 'sync-cache') };
  await Promise.all(all.map((s) => s.build?.(dirs)));
  return dirs.mirror;
}

/**
 * A test file's fixture mirror: built once before its tests (every domain's `build`, or with `domain` only
 * that domain's), closed and removed after. Returns the data folder (read it inside a test) and the
 * environment that points a CLI run at it.
 */
export function useFixtureMirror(prefix: string, domain?: string): { dir: () => string; env: () => Record<string, string> } {
  let dataDir = '';
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), prefix));
    if (domain === undefined) await buildFixtureMirror(dataDir);
    else {
      const s = DOMAIN_SAMPLES.get(domain);
      if (!s) throw new Error(`no test/${domain}/samples.ts`);
      await s.build?.({ dataDir, mirror: join(dataDir, 'mirror'), cacheDir: join(dataDir, 'sync-cache') });
    }
  }, 120_000);
  afterAll(async () => {
    await closeAll();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { dir: () => dataDir, env: () => ({ PUBLICDATA_DATA_DIR: dataDir, PUBLICDATA_CONFIG_DIR: join(dataDir, 'config'), NO_COLOR: '1' }) };
}
