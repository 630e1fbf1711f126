/**
 * What a command gets: IO streams (replaceable by buffers in tests), environment, clock, and lazily
 * built services (the GitHub CLI's Factory model): `backend()` (the local backend, or the live client
 * with the key, built on first use and shared by every call of the run), `config()` (the saved
 * config.json) and `mirror()` (the handler context: clock, env, mirror and cache dirs). Nothing here
 * imports DuckDB, undici or ora: those load when used. Only the process entry (src/main.ts) reads
 * process.env or the real clock, and calls process.exit.
 */
import type { Backend } from './backends/types.js';
import type { LiveOptions } from './backends/live.js';
import { createLocalBackend } from './backends/local.js';
import { chooseSource, handlerContext, liveBackend, type BackendOptions } from './backends/select.js';
import type { ResolvedKey } from './config.js';
import type { HandlerContext, RouteCall } from './contract/types.js';
import type { Route } from './registry.js';

export interface Out {
  /** Text, or bytes already UTF-8 encoded (a Buffer: batch results encoded on worker threads). */
  write(chunk: string | Buffer, cb?: (err?: Error | null) => void): boolean | void;
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
export type LiveFactoryOptions = Pick<LiveOptions, 'apiKey' | 'baseUrl' | 'maxWait' | 'maxCredits' | 'log' | 'notice'>;

/** The user's configuration as the run sees it. */
export interface Config {
  /** The API key and where it came from (env PUBLICDATA_API_KEY, else config.json), if any. */
  key?: ResolvedKey;
}

/** What a context is made from: IO, environment, clock and, in tests, a live-backend factory. */
export interface ContextBase {
  io: IO;
  env: Record<string, string | undefined>;
  now(): Date;
  /** Build the live backend (tests inject one pointing at their server, or a strict fake). */
  liveBackend?: (opts: LiveFactoryOptions) => Promise<Backend>;
  /**
   * Test seam (the GitHub CLI's runF): when set, a route command hands the call it built from argv
   * here instead of running it, so the argv-to-call mapping is tested without running anything.
   */
  runCall?: (call: RouteCall, how: { batch: boolean }) => Promise<number>;
}

export interface Context extends ContextBase {
  /** The backend that answers `route` under `opts.source`; built on first use and shared by the run. */
  backend(route: Route, opts: BackendOptions): Promise<Backend>;
  /** The configuration (API key from env or config.json), read on first use. */
  config(): Promise<Config>;
  /** The handler context: clock, env, and the mirror and cache dirs (resolved on first use). */
  mirror(): HandlerContext;
  /** Release what the run built (the live client's connections). */
  close(): Promise<void>;
}

/** A context with lazy services over `base`. */
export function createContext(base: ContextBase): Context {
  let mirror: HandlerContext | undefined;
  let local: Backend | undefined;
  let live: Promise<Backend> | undefined;
  let config: Promise<Config> | undefined;
  const ctx: Context = {
    ...base,
    mirror() {
      if (!mirror) mirror = handlerContext(ctx);
      return mirror;
    },
    async backend(route, opts) {
      const choice = await chooseSource(ctx, route, opts.source);
      if (choice.kind === 'live') {
        live ??= liveBackend(ctx, choice.key, opts);
        return live;
      }
      local ??= createLocalBackend(ctx.mirror());
      return local;
    },
    config() {
      config ??= import('./config.js').then((m) => {
        const key = m.resolveApiKeySource(ctx.env);
        return key ? { key } : {};
      });
      return config;
    },
    async close() {
      const b = live;
      live = undefined;
      // A live client that failed to build (bad PUBLICDATA_BASE_URL) was reported where it was asked for.
      const built = await b?.catch(() => undefined);
      await (built as { close?: () => Promise<void> } | undefined)?.close?.();
    },
  };
  return ctx;
}

