/**
 * What a command gets: IO streams (replaceable by buffers in tests), environment, clock, and lazily
 * built services (the GitHub CLI's Factory model): `backend()` (the local backend, or the live client
 * with the key, built on first use and shared by every call of the run), `config()` (the saved
 * config.json) and `mirror()` (the handler context: clock, env, mirror and cache dirs). Nothing here
 * imports DuckDB, undici or ora: those load when used. Only the process entry (src/main.ts) reads
 * process.env or the real clock, and calls process.exit. The types live here; `createContext`
 * (src/create-context.ts) builds one.
 */
import type { Backend, BackendOptions } from './backends/types.js';
import type { LiveOptions } from './backends/live.js';
import type { ResolvedKey } from './config.js';
import type { HandlerContext, RouteCall } from './contract/types.js';
import type { IO } from './io.js';
import type { Route } from './registry.js';

export type { IO, Out } from './io.js';


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
