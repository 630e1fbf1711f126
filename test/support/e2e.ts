/**
 * The e2e layer's helpers: the built `bin/publicdata.cjs` run as a process (execa) with an isolated
 * environment, every output captured for the "no key anywhere" checks. Used by test/e2e/ and by the
 * domains' own e2e files (test/<d>/e2e-bin.test.ts: the built binary holds only the real domains).
 */
import { execa } from 'execa';
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
