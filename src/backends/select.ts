/**
 * `--source auto|live|local` (env PUBLICDATA_SOURCE). auto: local when the route has a handler and its
 * data is present; else live when a key is configured; else local, which answers with a clear error
 * naming the sync command or key that would serve the call.
 */
import { ApiError } from '../contract/errors.js';
import type { Route } from '../registry.js';
import type { HandlerContext } from '../contract/types.js';
import type { Context } from '../context.js';
import { cacheDir, isDatasetPresent, mirrorDir } from '../mirror/paths.js';
import { VERSION } from '../version.js';
import type { Backend, BackendOptions, Source } from './types.js';

export { SOURCES } from './types.js';
export type { BackendOptions, Source } from './types.js';

/** The handler context of a run: clock, env, and the mirror and cache dirs (resolved on first use). */
export function handlerContext(ctx: Pick<Context, 'env' | 'now'>): HandlerContext {
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

export async function apiKeyFor(ctx: Context): Promise<string | undefined> {
  return (await ctx.config()).key?.key;
}

export async function liveBackend(ctx: Context, key: string, opts: Omit<BackendOptions, 'source'>): Promise<Backend> {
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
  const { createLiveBackend } = await import('./live.js');
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

/** `--source live` on a publicdata extension route (spec 5-places.md): exit 4, as the other "no backend can answer" errors. */
export function notAvailableLive(route: Route): ApiError {
  return new ApiError(
    501,
    'not_available_live',
    `${route.method} ${route.path} is a publicdata extension (${route.extension}), not a route of the published API: --source live cannot answer it. ` +
      "Run it locally (the default) or through 'publicdata serve'.",
  );
}

/** What answers one route under `--source`: local, or live with the key (none: the missing-key error). */
export async function chooseSource(ctx: Context, route: Route, source: Source): Promise<{ kind: 'local' } | { kind: 'live'; key: string }> {
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

/** Choose and build the backend for one route (the context memoises it: see Context.backend). */
export async function chooseBackend(ctx: Context, route: Route, opts: BackendOptions): Promise<Backend> {
  return ctx.backend(route, opts);
}
