/**
 * In-process CLI runs with injected IO: buffers for stdout/stderr, a TTY flag, stdin text, a fixed
 * clock (2026-11-21 12:00 UTC) and a private environment (no real config, data or keys).
 */
import { Readable } from 'node:stream';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../src/cli.js';
import type { Context } from '../../src/context.js';
import { createContext } from '../../src/create-context.js';
import { FIXED_NOW } from './handler-context.js';

export { FIXED_NOW };

export interface RunOptions {
  tty?: boolean;
  /** stderr is a terminal (wait notices, spinners). */
  stderrTty?: boolean;
  stdin?: string;
  env?: Record<string, string | undefined>;
  now?: Date;
  columns?: number;
  liveBackend?: Context['liveBackend'];
  /** Capture the route call a command builds instead of running it (Context.runCall). */
  runCall?: Context['runCall'];
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Every captured output of this test process, for the "key never appears" check. */
export const CAPTURED: string[] = [];

export function isolatedEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'publicdata-test-'));
  return {
    PUBLICDATA_CONFIG_DIR: join(dir, 'config'),
    PUBLICDATA_DATA_DIR: join(dir, 'data'),
    PUBLICDATA_CACHE_DIR: join(dir, 'cache'),
    ...extra,
  };
}

export async function runCli(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const ctx: Context = createContext({
    io: {
      stdout: { write: (s: string) => ((stdout += s), true) },
      stderr: { write: (s: string) => ((stderr += s), true) },
      stdin: Readable.from(opts.stdin !== undefined ? [opts.stdin] : []),
      stdoutIsTTY: Boolean(opts.tty),
      stderrIsTTY: Boolean(opts.stderrTty),
      columns: opts.columns ?? 100,
    },
    env: opts.env ?? isolatedEnv(),
    now: () => opts.now ?? FIXED_NOW,
    ...(opts.liveBackend ? { liveBackend: opts.liveBackend } : {}),
    ...(opts.runCall ? { runCall: opts.runCall } : {}),
  });
  const code = await run(args, ctx);
  CAPTURED.push(stdout, stderr);
  return { code, stdout, stderr };
}

export function json(r: RunResult): any {
  return JSON.parse(r.stdout);
}
