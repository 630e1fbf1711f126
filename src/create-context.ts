/**
 * Builds a Context (src/context.ts): the lazy services over IO, environment and clock, and the choice of
 * backend under `--source auto|live|local` (env PUBLICDATA_SOURCE). auto: local when the route has a
 * handler and its data is present; else live when a key is configured; else local, which answers with a
 * clear error naming the sync command or key that would serve the call. The backends below know nothing
 * of the context: it builds them.
 */
import { ApiError } from './contract/errors.js';
import type { Backend, BackendOptions, Source } from './backends/types.js';
import { createLocalBackend } from './backends/local.js';
import type { Config, Context, ContextBase } from './context.js';
import type { HandlerContext } from './contract/types.js';
import { cacheDir, isDatasetPresent, mirrorDir } from './mirror/paths.js';
import type { Route } from './registry.js';
import { VERSION } from './version.js';

/** The handler context of a run: clock, env, and the mirror and cache dirs (resolved on first use). */
function handlerContext(ctx: Pick<Context, 'env' | 'now'>): HandlerContext {
  // Paths resolve on first use: calculators never touch them, and env-paths costs start-up time.
  return {
    now: () => ctx.now(),
    env: ctx.env,
    get mirrorDir() {
      return mirrorDir(ctx.env);
    },
    get cacheDir() {
      return cacheDir(ctx.env);
    },
  };
}

function dataPresent(route: Route, dir: string): boolean {
  return (route.local?.datasets ?? []).every((d) => isDatasetPresent(d, dir));
}

async function apiKeyFor(ctx: Context): Promise<string | undefined> {
  return (await ctx.config()).key?.key;
}

async function liveBackend(ctx: Context, key: string, opts: Omit<BackendOptions, 'source'>): Promise<Backend> {
  const log = opts.verbose ? (line: string) => void ctx.io.stderr.write(`${line}\n`) : undefined;
  // On a terminal a person hears what a wait is for (back-off, rate-limit reset), even without --verbose.
  const notice = !log && !opts.quiet && ctx.io.stderrIsTTY ? (line: string) => void ctx.io.stderr.write(`${line}\n`) : undefined;
  const factoryOpts = {
    apiKey: key,
    // PUBLICDATA_BASE_URL, else live.ts's default (https://api.govdata.dev/v1).
    ...(ctx.env.PUBLICDATA_BASE_URL ? { baseUrl: ctx.env.PUBLICDATA_BASE_URL } : {}),
    ...(opts.maxWait !== undefined ? { maxWait: opts.maxWait } : {}),
    ...(opts.maxCredits !== undefined ? { maxCredits: opts.maxCredits } : {}),
    ...(log ? { log } : {}),
    ...(notice ? { notice } : {}),
  };
  if (ctx.liveBackend) return ctx.liveBackend(factoryOpts);
  const { createLiveBackend } = await import('./backends/live.js');
  const backend = createLiveBackend({ ...factoryOpts, env: ctx.env, userAgent: `publicdata/${VERSION}` });
  for (const w of backend.warnings) ctx.io.stderr.write(`warning: ${w}\n`);
  return backend;
}

export function missingKey(): ApiError {
  return new ApiError(
    401,
    'unauthorized',
    "No API key for a live call. Set PUBLICDATA_API_KEY or run 'publicdata auth login' (the key is read from stdin, never from arguments).",
  );
}

/** What answers one route under `--source`: local, or live with the key (none: the missing-key error). */
/** `--source live` on a publicdata extension route (spec 5-places.md): exit 4, as the other "no backend can answer" errors. */
export function notAvailableLive(route: Route): ApiError {
  return new ApiError(
    501,
    'not_available_live',
    `${route.method} ${route.path} is a publicdata extension (${route.extension}), not a route of the published API: --source live cannot answer it. ` +
      "Run it locally (the default) or through 'publicdata serve'.",
  );
}

async function chooseSource(ctx: Context, route: Route, source: Source): Promise<{ kind: 'local' } | { kind: 'live'; key: string }> {
  if (source === 'local') return { kind: 'local' };
  if (route.extension) {
    // a publicdata extension: the published API has no such route, so there is no live call to make; a live
    // client pointed elsewhere (PUBLICDATA_BASE_URL: another publicdata serve) may ask that server
    if (source === 'auto' || !ctx.env.PUBLICDATA_BASE_URL) {
      if (source === 'live') throw notAvailableLive(route);
      return { kind: 'local' };
    }
  }
  if (source === 'live') {
    const key = await apiKeyFor(ctx);
    if (!key) throw missingKey();
    return { kind: 'live', key };
  }
  if (route.local && dataPresent(route, ctx.mirror().mirrorDir)) return { kind: 'local' };
  const key = await apiKeyFor(ctx);
  if (key) return { kind: 'live', key };
  return { kind: 'local' };
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

