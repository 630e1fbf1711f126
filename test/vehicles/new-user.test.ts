/**
 * What a new user met (issue 28), vehicles' cases (from test/cli/new-user, whose shared cases now run on the
 * test-only example domain in test/kit/new-user.test.ts).
 */
import { describe, expect, test } from 'vitest';
import { json, runCli } from '../support/cli.js';
import { complete } from '../support/completion.js';

describe('choices are matched without case', () => {
  test('vehicles licensing --geography uk passes UK on', async () => {
    const calls: Array<{ query?: Record<string, unknown> }> = [];
    const r = await runCli(['vehicles', 'licensing', '--make', 'TESLA', '--geography', 'uk'], { runCall: async (c) => (calls.push(c), 0) });
    expect(r.code).toBe(0);
    expect(calls[0]!.query!.geography).toBe('UK');
  });
  test('a value outside the choices: invalid_parameter, never usage_error', async () => {
    const geo = await runCli(['vehicles', 'licensing', '--make', 'TESLA', '--geography', 'EU', '--format', 'json']);
    expect([geo.code, json(geo).error.code]).toEqual([2, 'invalid_parameter']);
  });
  test('bash completion: --geography offers GB and UK', async () => {
    const script = (await runCli(['completion', 'bash'])).stdout;
    expect(complete(script, 'vehicles', 'licensing', '--geography', '')).toEqual(['GB', 'UK']);
  });
});
