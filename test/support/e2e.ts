/**
 * The e2e layer's helpers: the built `bin/publicdata.cjs` run as a process (execa) with an isolated
 * environment, every output captured for the "no key anywhere" checks. Used by test/e2e/ and by the
 * domains' own e2e files (test/<d>/e2e-bin.test.ts: the built binary holds only the real domains).
 */
import { execa } from 'execa';
import { afterAll, beforeAll } from 'vitest';
import { startApiServer, TEST_KEY, type ApiServer } from './api-server.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const BIN = join(__dirname, '..', '..', 'bin', 'publicdata.cjs');

export function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'publicdata-e2e-'));
  return {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    PUBLICDATA_CONFIG_DIR: join(dir, 'config'),
    PUBLICDATA_DATA_DIR: join(dir, 'data'),
    NO_COLOR: '1',
    ...extra,
  };
}

/** A runner of the built binary that keeps what it printed in `captured`. */
export function binRunner(captured: string[]) {
  return async (args: string[], env: Record<string, string>, input?: string) => {
    const r = await execa('node', [BIN, ...args], { env, extendEnv: false, reject: false, ...(input !== undefined ? { input } : {}) });
    captured.push(r.stdout, r.stderr);
    return r;
  };
}

/**
 * The built binary's `serve` on a free port, given to `fn` by its /v1 URL, stopped after (SIGTERM) whatever
 * `fn` does.
 */
export async function withBuiltServe<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const child = execa('node', [BIN, 'serve', '--port', '0', '--quiet'], { env: baseEnv(), extendEnv: false, reject: false });
  try {
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      const seen = (d: Buffer) => {
        out += d.toString();
        const m = /(http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out);
        if (m) resolve(m[1]!);
      };
      child.stdout!.on('data', seen);
      child.stderr!.on('data', seen);
      void child.then((r) => reject(new Error(`serve exited: ${r.stderr}`)));
    });
    return await fn(url);
  } finally {
    child.kill('SIGTERM');
    await child;
  }
}

/**
 * The test API server for a file's live runs of the built binary (started before its tests, closed after);
 * returns the environment that points the binary at it with a key, and the server (its faults and counts). Injected 5xx answers ask for an
 * immediate retry (Retry-After: 0), so the retry paths run without waiting through the real back-off (its
 * timing is tested in process, test/live).
 */
export function useLiveApi(): { liveEnv: (key?: string) => Record<string, string>; server: () => ApiServer } {
  let server: ApiServer;
  beforeAll(async () => {
    server = await startApiServer({ limit: 50, windowMs: 2000, faultRetryAfter: 0 });
  });
  afterAll(async () => {
    await server.close();
  });
  return { liveEnv: (key = TEST_KEY) => baseEnv({ PUBLICDATA_BASE_URL: server.url, PUBLICDATA_API_KEY: key }), server: () => server };
}

