/** What a new user met (issue 28), energy's case (from test/cli/new-user; the shared cases are in test/kit/new-user.test.ts). */
import { describe, expect, test } from 'vitest';
import { json, runCli } from '../support/cli.js';

describe('a value outside the choices', () => {
  test('energy rates --region atlantis: the spec code (query invalid_parameter), never usage_error', async () => {
    const query = await runCli(['energy', 'rates', '--region', 'atlantis', '--format', 'json']);
    expect([query.code, json(query).error.code]).toEqual([2, 'invalid_parameter']);
    expect(json(query).error.message).toContain('--region');
  });
});
