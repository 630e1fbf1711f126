/**
 * `price-paid show <id>` with an id that spells a sibling route's literal segment (statistics, search,
 * address) is not found: before, the path /v1/property/price-paid/statistics ran the statistics route
 * ("One of 'postcode', 'town', 'district' is required."). The spec: the literal path `statistics` is not
 * an id. Checked with no mirror and no key: nothing is read or requested.
 */
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';

describe('price-paid show <literal segment>', () => {
  it.each(['statistics', 'search', 'address'])('show %s: 404 not_found (exit 1), for local and live alike, before any call', async (id) => {
    for (const source of ['local', 'live']) {
      const r = await runCli(['property', 'price-paid', 'show', id, '--source', source, '--format', 'json'], { env: isolatedEnv() });
      expect([source, r.code]).toEqual([source, 1]);
      expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'not_found', message: expect.stringContaining(`No id '${id}'`) });
    }
  });
});
