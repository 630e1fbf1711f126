/**
 * A command chooses its backend once (src/invoke.ts), then calls it for the answer and for every `--all`
 * page; `execute` (one call from a command's prepare, serve, batch) chooses for itself.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Context } from '../../src/context.js';
import { createContext } from '../../src/create-context.js';
import { execute } from '../../src/execute.js';
import { invoke, type GlobalOptions } from '../../src/invoke.js';
import { ROUTES } from '../../src/registry.js';
import { FIXED_NOW, isolatedEnv } from '../support/cli.js';
import { FakeLive } from '../support/fake-live.js';
import { fakeKey } from '../support/keys.js';

const KEY = fakeKey('test', 'backendonce000000000000000000000');

/** A GET route paginated at the top level, with no path parameter and no required query parameter. */
const route = ROUTES.find((r) => r.method === 'GET' && r.pagination === 'top' && !r.path.includes('{') && !Object.values(r.query ?? {}).some((p) => p.required))!;

function counted(fake: FakeLive): { ctx: Context; choices: () => number; out: () => string } {
  let stdout = '';
  const ctx = createContext({
    io: {
      stdout: { write: (s: string) => ((stdout += s), true) },
      stderr: { write: () => true },
      stdin: Readable.from([]),
      stdoutIsTTY: false,
      stderrIsTTY: false,
      columns: 100,
    },
    env: isolatedEnv({ PUBLICDATA_API_KEY: KEY }),
    now: () => FIXED_NOW,
    liveBackend: fake.factory,
  });
  let n = 0;
  const backend = ctx.backend.bind(ctx);
  ctx.backend = (r, o) => ((n += 1), backend(r, o));
  return { ctx, choices: () => n, out: () => stdout };
}

const page = (p: number, records: number) => ({
  status: 200,
  source: 'live' as const,
  envelope: {
    data: Array.from({ length: records }, (_, i) => ({ n: (p - 1) * 2 + i + 1 })),
    meta: {} as never,
    pagination: { page: p, per_page: 2, total: 5, total_pages: 3 },
  },
});

const g: GlobalOptions = { source: 'live', format: 'ndjson', color: false, verbose: false, quiet: true, all: true };

describe('the backend is chosen once per command', () => {
  it(`--all over three pages (${route?.id}): one choice, three requests`, async () => {
    expect(route).toBeDefined();
    const fake = new FakeLive();
    for (const [p, n] of [[1, 2], [2, 2], [3, 1]] as const) fake.register('GET', route.path, () => page(p, n));
    const { ctx, choices, out } = counted(fake);
    const code = await invoke(ctx, { method: 'GET', path: route.path, query: {} }, g);
    expect(code).toBe(0);
    fake.verify();
    expect(fake.requests.map((r) => r.query.page)).toEqual(['1', '2', '3']);
    expect(out().trim().split('\n').map((l) => JSON.parse(l).n)).toEqual([1, 2, 3, 4, 5]);
    expect(choices()).toBe(1);
    expect(fake.built).toHaveLength(1);
  });

  it('one call: one choice', async () => {
    const fake = new FakeLive();
    fake.register('GET', route.path, () => page(1, 2));
    const { ctx, choices } = counted(fake);
    expect(await invoke(ctx, { method: 'GET', path: route.path, query: {} }, { ...g, all: false })).toBe(0);
    expect(choices()).toBe(1);
    fake.register('GET', route.path, () => page(1, 2));
    expect((await execute({ method: 'GET', path: route.path, query: {} }, ctx, { source: 'live' })).status).toBe(200);
    expect(choices()).toBe(2);
    fake.verify();
  });
});
