/**
 * `publicdata serve` in process for tests: a real node:http server on 127.0.0.1 (random port) answering
 * with the local handlers (fixed handler clock 2026-11-21), a movable server clock for rate windows and
 * credit months, keys from keys-file text and a credit state file in a temp directory.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { callLocal } from '../../src/backends/local.js';
import type { CallResult, RouteCall } from '../../src/contract/types.js';
import { parseKeysFile } from '../../src/server/keys.js';
import { startServer, type RunningServer, type ServeOptions } from '../../src/server/server.js';
import { FakeClock } from './clock.js';
import { handlerCtx } from './handler-context.js';

export { FakeClock };

export interface TestServer extends RunningServer {
  clock: FakeClock;
  stateFile: string;
  accessLog: string[];
  errorLog: string[];
}

export interface TestServerOptions extends Partial<Omit<ServeOptions, 'keys'>> {
  /** Keys file text; absent = single-user mode. */
  keysText?: string;
  mirrorDir?: string;
  clock?: FakeClock;
  /** Wrap the local call (e.g. to hold a request open). */
  wrap?: (call: RouteCall, run: () => Promise<CallResult>) => Promise<CallResult>;
}

export async function startTestServer(o: TestServerOptions = {}): Promise<TestServer> {
  const clock = o.clock ?? new FakeClock();
  const stateFile = o.stateFile ?? join(mkdtempSync(join(tmpdir(), 'pd-serve-')), 'credits.json');
  const hctx = handlerCtx(undefined, o.mirrorDir ? { mirrorDir: o.mirrorDir } : {});
  const accessLog: string[] = [];
  const errorLog: string[] = [];
  const { keysText, mirrorDir: _m, clock: _c, wrap, ...rest } = o;
  const execute = (call: RouteCall) => (wrap ? wrap(call, () => callLocal(call, hctx)) : callLocal(call, hctx));
  const server = await startServer({
    port: 0,
    execute,
    accessLog: (l) => accessLog.push(l),
    errorLog: (l) => errorLog.push(l),
    now: clock.now,
    ...(keysText !== undefined ? { keys: parseKeysFile(keysText), stateFile } : {}),
    ...rest,
  });
  return Object.assign(server, { clock, stateFile, accessLog, errorLog });
}

/** A test file's server starter: every server started through it is closed after each test. */
export function useTestServers(): (o?: TestServerOptions) => Promise<TestServer> {
  const servers: TestServer[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
  });
  return async (o = {}) => {
    const s = await startTestServer(o);
    servers.push(s);
    return s;
  };
}

/** A live key of the given plan as one keys-file line. */
export function keyLine(key: string, plan: { per_minute?: number; monthly_credits?: number; credits?: number; kind?: string } = {}): string {
  return JSON.stringify({ key, ...plan });
}
