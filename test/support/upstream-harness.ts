/**
 * Shared set-up of the dataset sync tests: one local upstream server per file, and sync options that
 * point a fresh temporary mirror at it. Temporary directories are removed after the file's tests.
 */
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { cleanup, tempDir } from './mirror-helper.js';
import { startUpstreamServer, type UpstreamServer } from '../support/upstream-server.js';

export interface UpstreamHarness {
  readonly server: UpstreamServer;
  /** Options for syncDataset: a new temp mirror, this server as PUBLICDATA_UPSTREAM_BASE, fast retries. */
  syncOptions(nowIso?: string): {
    mirrorDir: string;
    cacheDir: string;
    env: Record<string, string>;
    backoffMs: number;
    retries: number;
    now?: () => Date;
  };
}

export function useUpstreamServer(prefix: string): UpstreamHarness {
  let server: UpstreamServer | undefined;
  const dirs: string[] = [];
  beforeAll(async () => {
    server = await startUpstreamServer();
  });
  afterAll(async () => {
    await server?.close();
    await cleanup(dirs);
  });
  return {
    get server() {
      if (!server) throw new Error('upstream server not started (use inside a test)');
      return server;
    },
    syncOptions(nowIso) {
      const d = tempDir(prefix);
      dirs.push(d);
      return {
        mirrorDir: join(d, 'mirror'),
        cacheDir: join(d, 'cache'),
        env: { PUBLICDATA_UPSTREAM_BASE: this.server.url },
        backoffMs: 1,
        retries: 0,
        ...(nowIso ? { now: () => new Date(nowIso) } : {}),
      };
    },
  };
}
