/** Builds a Context (src/context.ts): the lazy services over IO, environment and clock. */
import type { Backend } from './backends/types.js';
import { createLocalBackend } from './backends/local.js';
import { chooseSource, handlerContext, liveBackend } from './backends/select.js';
import type { Config, Context, ContextBase } from './context.js';
import type { HandlerContext } from './contract/types.js';

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

