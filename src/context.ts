/**
 * What a command gets: IO streams (replaceable by buffers in tests), environment, clock, paths, and a
 * factory for the live backend. Nothing here imports DuckDB, undici or ora: those load when used.
 */
import type { Backend } from './backends/types.js';
import type { LiveOptions } from './backends/live.js';

export interface Out {
  write(chunk: string): boolean | void;
  once?(event: 'drain', cb: () => void): unknown;
}

export interface IO {
  stdout: Out;
  stderr: Out;
  stdin: NodeJS.ReadableStream;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Terminal width for tables. */
  columns: number;
}

/** What the CLI passes to build a live backend (a subset of the client's own options). */
export type LiveFactoryOptions = Pick<LiveOptions, 'apiKey' | 'baseUrl' | 'maxWait' | 'maxCredits' | 'log'>;

export interface Context {
  io: IO;
  env: Record<string, string | undefined>;
  now(): Date;
  /** Build the live backend (tests may inject one pointing at their server). */
  liveBackend?: (opts: LiveFactoryOptions) => Promise<Backend>;
}

/** The real process context. */
export function processContext(): Context {
  return {
    io: {
      stdout: process.stdout,
      stderr: process.stderr,
      stdin: process.stdin,
      stdoutIsTTY: Boolean(process.stdout.isTTY),
      stderrIsTTY: Boolean(process.stderr.isTTY),
      columns: process.stdout.columns || 100,
    },
    env: process.env,
    now: () => new Date(),
  };
}
