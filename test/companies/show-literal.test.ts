/**
 * Per-company commands (`companies show|psc|financials … NUMBER`) with a word that is a sibling route's
 * literal segment (search, statistics): before, `companies show search` ran the search route ("Missing
 * required parameter 'q'") and `show statistics` the statistics route. Now the company number is checked
 * as the company's route checks it: a 400 naming the argument, before any data access or request.
 */
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';

describe('companies <command> <literal segment>', () => {
  it.each([
    ['show', 'search'],
    ['show', 'statistics'],
    ['psc', 'changes'],
  ])('companies %s %s: invalid_parameter on <company_number> (exit 2), local and live', async (cmd, word) => {
    for (const source of ['local', 'live']) {
      const r = await runCli(['companies', cmd, word, '--source', source, '--format', 'json'], { env: isolatedEnv() });
      expect([source, r.code]).toEqual([source, 2]);
      expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'invalid_parameter', message: expect.stringMatching(new RegExp(`^Invalid argument <company_number>: '${word}'`)) });
    }
  });
});
