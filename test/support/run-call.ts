/**
 * The route call a command builds from its argv, without running it: the context's runCall seam (the
 * GitHub CLI's runF) receives the call. For argv-mapping tests, shared and domain alike.
 */
import { expect } from 'vitest';
import type { RouteCall } from '../../src/contract/types.js';
import { runCli } from './cli.js';

export async function callOf(args: string[]): Promise<RouteCall & { batch: boolean }> {
  const calls: Array<RouteCall & { batch: boolean }> = [];
  const r = await runCli(args, {
    runCall: async (call, how) => {
      calls.push({ ...call, batch: how.batch });
      return 0;
    },
  });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(calls).toHaveLength(1);
  return calls[0]!;
}
