/**
 * food-hygiene (moved from test/cli/unknown-area.test.ts).
 * Issue 37: an area that matches nothing answered as a real zero. An unknown authority is 404 naming the
 * command that lists those loaded. Run through the CLI on the fixture mirror (four FSA authorities: 314,
 * 626, 648, 760).
 */
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeAll } from '../../src/mirror/db.js';
import { syncDataset } from '../../src/sync-runner.js';
import { runCli } from '../support/cli.js';
import { useFixtureMirror } from '../support/route-samples.js';
import { useUpstreamServer } from '../support/upstream-harness.js';
import { AUTHORITIES, authoritiesJson, fileName, FIXTURE_DIR, readXml } from './fixture.js';

const mirror = useFixtureMirror('pd-unknown-area-', 'food-hygiene');
const run = async (args: string[]) => {
  const r = await runCli([...args, '--source', 'local', '--format', 'json'], { env: mirror.env() });
  return { code: r.code, body: JSON.parse(r.stdout) };
};

describe('an area that matches nothing is not a real zero', () => {
  it('food-hygiene stats --authority Nowhere: 404 naming the command that lists the authorities', async () => {
    const r = await run(['food-hygiene', 'stats', '--authority', 'Nowhere']);
    expect([r.code, r.body.error.code]).toEqual([1, 'not_found']);
    expect(r.body.error.message).toContain("No local authority loaded matches 'Nowhere': 'publicdata food-hygiene authorities' lists those loaded");
    // a mirror of XML files alone does not know the FSA's list: the sync that could add one is named
    expect(r.body.error.message).toMatch(/; 'publicdata sync food-hygiene( --authorities [\d,]+,CODE' adds another to those held|' loads every authority the FSA lists)\.$/);
    const list = await run(['food-hygiene', 'search', '--authority', 'Nowhere']);
    expect([list.code, list.body.error.code]).toEqual([1, 'not_found']);
    // a loaded one still answers
    const ok = await run(['food-hygiene', 'stats', '--authority', '314']);
    expect(ok.code).toBe(0);
    expect(ok.body.data.establishment_count).toBeGreaterThan(0);
  });
});

// An authority on the FSA's list whose file the mirror does not hold: null figures and the sync that loads
// it (issue 37: "an area not loaded has null figures and says which sync loads it"), through a real sync of
// the real files from a local server; the list is generated (fixture.ts), one entry beyond the four files
// made up for this test (code 9001, a name no file gives).
describe('an authority listed but not loaded', () => {
  const up = useUpstreamServer('pd-fh-not-loaded-');
  afterAll(() => closeAll());
  const EXTRA = { code: '9001', name: 'Listedshire', region: 'Nowhere Region', scheme: 1 as const, published: '2020-11-01T00:00:00', count: 5 };

  async function syncSome(codes: string[] | undefined) {
    const base = `${up.server.url}/food-hygiene`;
    up.server.set('/food-hygiene/Authorities', authoritiesJson(base, [...AUTHORITIES, EXTRA]), { contentType: 'application/json' });
    for (const a of AUTHORITIES) up.server.setFile(`/food-hygiene/api/open-data-files/${fileName(a.code)}`, join(FIXTURE_DIR, fileName(a.code)));
    const o = up.syncOptions();
    const r = await syncDataset('food-hygiene', { ...o, ...(codes ? { lists: { authorities: codes } } : {}) });
    expect(r.status).toBe('synced');
    const env = { PUBLICDATA_DATA_DIR: dirname(o.mirrorDir), PUBLICDATA_CONFIG_DIR: join(dirname(o.mirrorDir), 'config'), NO_COLOR: '1' };
    return async (args: string[], format = 'json') => {
      const res = await runCli([...args, '--source', 'local', '--format', format], { env });
      return { code: res.code, out: res.stdout, body: format === 'json' ? JSON.parse(res.stdout) : undefined };
    };
  }

  it('stats and search: null figures (not 0) and meta.note naming the sync that adds it to those held; an unknown name is still 404', async () => {
    const run = await syncSome(['314', '626']);
    for (const q of ['760', 'aberdeen']) {
      const s = await run(['food-hygiene', 'stats', '--authority', q]);
      expect(s.code).toBe(0);
      expect(s.body.data).toEqual({ area: 'Aberdeen City', establishment_count: null, by_rating: null, share_4_or_5: null, average_scores: null });
      expect(s.body.meta.note).toBe(
        "Aberdeen City (760) is on the FSA's list but not loaded: no figures for it here, not a count of 0. 'publicdata sync food-hygiene --authorities 314,626,760' adds it to those held.",
      );
    }
    const list = await run(['food-hygiene', 'search', '--authority', 'River Tees']);
    expect([list.code, list.body.data]).toEqual([0, []]);
    expect(list.body.meta.note).toContain("River Tees (648) is on the FSA's list but not loaded");
    expect(list.body.meta.note).toContain("'publicdata sync food-hygiene --authorities 314,626,648'");
    // the chart says so instead of drawing nothing as if none were rated
    const chart = await run(['food-hygiene', 'stats', '--authority', '760', '--chart'], 'table');
    expect(chart.out.split('\n')[0]).toBe('no figures for Aberdeen City: not loaded');
    // loaded ones answer as before; a name on no list and in no file is 404
    expect((await run(['food-hygiene', 'stats', '--authority', '314'])).body.data.establishment_count).toBe(readXml(fileName('314')).length);
    const nowhere = await run(['food-hygiene', 'stats', '--authority', 'Nowhere']);
    expect([nowhere.code, nowhere.body.error.code]).toEqual([1, 'not_found']);
    // the FSA's list is known and names no such authority: no sync is advised
    expect(nowhere.body.error.message).toBe(
      "No local authority matches 'Nowhere', loaded or on the FSA's list: 'publicdata food-hygiene authorities' lists those loaded (GET /v1/food-hygiene/authorities), by code (314) or name.",
    );
    // an answer about an authority with no file loaded rests on no file: its caveat says so
    const none = await run(['food-hygiene', 'stats', '--authority', '760']);
    expect(none.body.meta.caveat).toBe(
      "From the Food Standards Agency's open data (no file of Aberdeen City (760) is loaded; the mirror is a static copy, not the live service): ratings.food.gov.uk is the authoritative current rating.",
    );
    // a name that matches one loaded and two listed: the loaded one's figures, and the others named
    const mixed = await run(['food-hygiene', 'stats', '--authority', 'er']);
    expect(mixed.body.data.area).toBe('Waverley, Aberdeen City, River Tees');
    expect(mixed.body.data.establishment_count).toBe(readXml(fileName('314')).length);
    expect(mixed.body.meta.note).toBe(
      "Aberdeen City (760), River Tees (648) are on the FSA's list but not loaded: the figures leave them out. 'publicdata sync food-hygiene --authorities 314,626,648,760' adds them to those held.",
    );
  });

  it('a full sync whose list names an authority with no file: the note says a full sync loads it and mirror status tells why', async () => {
    // 9001's file is not served: rejected by name, the four others load
    const run = await syncSome(undefined);
    const s = await run(['food-hygiene', 'stats', '--authority', 'listedshire']);
    expect(s.body.data.establishment_count).toBeNull();
    expect(s.body.meta.note).toBe(
      "Listedshire (9001) is on the FSA's list but not loaded: no figures for it here, not a count of 0. 'publicdata sync food-hygiene' loads every listed authority (its file may have been rejected: 'publicdata mirror status' says).",
    );
    const status = (await run(['mirror', 'status', 'food-hygiene'])).body.data[0];
    expect(status.rows_rejected).toBeGreaterThan(0);
    expect(status.note).toContain("; 1 authority on the FSA's list not loaded: Listedshire (9001, FHRS9001en-GB.xml rejected)");
  });
});

describe('a sync whose files are mostly missing', () => {
  const up = useUpstreamServer('pd-fh-broken-');
  afterAll(() => closeAll());

  it('fails naming the rejects, and says once that the previous data is kept', async () => {
    // the list names the four real files; only Waverley's is served (the others 404): 3 of 4 rejected
    const base = `${up.server.url}/food-hygiene`;
    up.server.set('/food-hygiene/Authorities', authoritiesJson(base, AUTHORITIES), { contentType: 'application/json' });
    up.server.setFile(`/food-hygiene/api/open-data-files/${fileName('314')}`, join(FIXTURE_DIR, fileName('314')));
    const o = up.syncOptions();
    const err = await syncDataset('food-hygiene', o).then(() => undefined, (e: Error) => e);
    expect(err?.message).toMatch(/^food-hygiene: load failed: 3 of 4 authority files and \d+ establishments rejected against \d+ held \(more than 50%\): upstream looks broken; kept the previous data$/);
  });
});
