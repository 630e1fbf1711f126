/**
 * `sync food-hygiene` through the real framework against a real local HTTP server serving the FSA's real
 * per-authority files and a generated authorities list; answers checked against values read from the
 * XML with regular expressions (fixture.ts), not with the sync's parser.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FOOD_HYGIENE_INFO } from '../../src/domains/food-hygiene/datasets.js';
import { closeAll, openDataset, query } from '../../src/mirror/db.js';
import { syncDataset } from '../../src/sync-runner.js';
import { ctxFor } from '../support/mirror-helper.js';
import { getRoute } from '../support/route.js';
import { useUpstreamServer } from '../support/upstream-harness.js';
import { AUTHORITIES, authoritiesJson, extractDate, fileName, FIXTURE_DIR, readXml, SPEC_VALUE } from './fixture.js';

const up = useUpstreamServer('pd-food-sync-');
afterAll(() => closeAll());

const base = () => `${up.server.url}/food-hygiene`;
function serveAll(entries = AUTHORITIES): void {
  up.server.set('/food-hygiene/Authorities', authoritiesJson(base(), entries), { contentType: 'application/json' });
  for (const a of AUTHORITIES) up.server.setFile(`/food-hygiene/api/open-data-files/${fileName(a.code)}`, join(FIXTURE_DIR, fileName(a.code)));
}
const all = AUTHORITIES.flatMap((a) => readXml(fileName(a.code)));
const get = async (mirrorDir: string, path: string, q: Record<string, string> = {}) => (await getRoute(path, q, ctxFor(mirrorDir))).envelope as any;

describe('the FSA per-authority files: the direct URL, and backing off when rate-limited', () => {
  it("fetches /api/open-data-files/ (not the list's rate-limited OpenDataFiles redirect); a 429 then 200 waits Retry-After and loads, no reject", async () => {
    serveAll();
    // the list names the legacy form (fixture.ts: FileName …/OpenDataFiles/…); only the direct form is served
    expect(authoritiesJson(base(), AUTHORITIES)).toContain('/OpenDataFiles/FHRS648en-GB.xml');
    up.server.fault('/food-hygiene/api/open-data-files/FHRS648en-GB.xml', { status: 429, times: 1, headers: { 'retry-after': '7' } });
    const waits: number[] = [];
    const o = up.syncOptions();
    const before = up.server.requests.length;
    const r = await syncDataset('food-hygiene', { ...o, sleep: async (ms) => void waits.push(ms) });
    up.server.fault('/food-hygiene/api/open-data-files/FHRS648en-GB.xml', undefined);
    expect(r.status).toBe('synced');
    expect(r.rows_rejected).toBe(0);
    expect(r.rows_loaded).toBe(all.length);
    // Retry-After: 7 -> 7,000 ms, waited (recorded here, not slept)
    expect(waits).toContain(7000);
    const xml = up.server.requests.slice(before).map((q) => [q.path, q.status]).filter(([p]) => String(p).endsWith('.xml'));
    expect(xml.filter(([p]) => String(p).includes('OpenDataFiles'))).toEqual([]);
    expect(xml.filter(([p]) => p === '/food-hygiene/api/open-data-files/FHRS648en-GB.xml')).toEqual([
      ['/food-hygiene/api/open-data-files/FHRS648en-GB.xml', 429],
      ['/food-hygiene/api/open-data-files/FHRS648en-GB.xml', 200],
    ]);
  });
  it('a 504 on every try is a reject only after the backoff budget', async () => {
    serveAll();
    up.server.fault('/food-hygiene/api/open-data-files/FHRS626en-GB.xml', { status: 504 });
    const waits: number[] = [];
    const o = up.syncOptions();
    const before = up.server.requests.length;
    const r = await syncDataset('food-hygiene', { ...o, sleep: async (ms) => void waits.push(ms) });
    up.server.fault('/food-hygiene/api/open-data-files/FHRS626en-GB.xml', undefined);
    expect(r.status).toBe('synced');
    expect(r.rows_rejected).toBe(8); // Hull and Goole Port's 8 establishments (listed count)
    // 9 rounds (RATE_LIMIT_RETRIES 8 + 1) of the download's 4 attempts each: 36 requests
    expect(up.server.requests.slice(before).filter((q) => q.path === '/food-hygiene/api/open-data-files/FHRS626en-GB.xml')).toHaveLength(36);
    // the pool-wide pauses double from 2 s up to the 60 s cap (2, 4, 8, 16, 32, 60, 60, 60: recorded, not slept)
    expect(Math.max(...waits)).toBeLessThanOrEqual(60_000);
    expect(waits.filter((w) => w > 59_000).length).toBeGreaterThanOrEqual(3);
  });
});

const SCHEME_VALUES = {
  fhrs: ['0', '1', '2', '3', '4', '5', 'exempt', 'awaiting_inspection', 'awaiting_publication'],
  fhis: ['exempt', 'awaiting_inspection', 'awaiting_publication', 'pass', 'pass_and_eat_safe', 'improvement_required'],
};

describe('sync food-hygiene from the authorities list', () => {
  it('loads every establishment of the four real files, counted per rating as the XML says', async () => {
    serveAll();
    const o = up.syncOptions();
    const status: string[] = [];
    const shares: string[] = [];
    const r = await syncDataset('food-hygiene', { ...o, progress: (e) => void (e.type === 'status' && (status.push(e.text), shares.push(`${e.share?.done}/${e.share?.total}`))) });
    // the bar moves file by file (issue 37: it stood still through a food hygiene load)
    expect(shares).toEqual(['1/4', '2/4', '3/4', '4/4', '4/4']);
    expect(r.status).toBe('synced');
    expect(r.rows_loaded).toBe(all.length);
    expect(status.at(-1)).toMatch(new RegExp(`^files 4/4, [0-9.]+ [KM]B read, ${all.length} establishments$`));
    expect(all.length).toBe(60 + 8 + 7 + 42);
    expect(r.as_of).toBe(AUTHORITIES.map((a) => extractDate(fileName(a.code))).sort().pop()); // the newest ExtractDate
    for (const a of AUTHORITIES) {
      const xml = readXml(fileName(a.code));
      // every value of the authority's scheme (the FSA Readme's lists), 0 where the file has none
      const expected: Record<string, number> = Object.fromEntries(SCHEME_VALUES[a.scheme === 1 ? 'fhrs' : 'fhis'].map((v) => [v, 0]));
      for (const e of xml) expected[SPEC_VALUE[e.rating]!] = (expected[SPEC_VALUE[e.rating]!] ?? 0) + 1;
      const stats = await get(o.mirrorDir, '/v1/food-hygiene/statistics', { local_authority: a.code });
      expect(stats.data.by_rating).toEqual(expected);
      expect(stats.data.area).toBe(a.name); // the authority as people know it, not its code
      expect(stats.meta.caveat).toContain(`file of ${a.name} (extracted ${extractDate(fileName(a.code))})`);
      expect(stats.data.establishment_count).toBe(xml.length);
    }
    const auths = await get(o.mirrorDir, '/v1/food-hygiene/authorities');
    expect(auths.data.map((a: any) => [a.code, a.establishment_count, a.scheme])).toEqual([
      ['760', 42, 'fhis'], ['626', 8, 'fhrs'], ['648', 7, 'fhrs'], ['314', 60, 'fhrs'],
    ]);
    expect(auths.data.find((a: any) => a.code === '626')).toMatchObject({ name: 'Hull and Goole Port', extract_date: extractDate('FHRS626en-GB.xml'), published_count: 8 });
    expect(auths.data.find((a: any) => a.code === '314').published_count).toBe(1024); // the excerpt's header
    const all4 = await get(o.mirrorDir, '/v1/food-hygiene/statistics');
    expect(all4.data.establishment_count).toBe(all.length);
    const fhrs = all.filter((e) => /^[0-5]$/.test(e.rating));
    expect(all4.data.share_4_or_5).toBeCloseTo(fhrs.filter((e) => Number(e.rating) >= 4).length / fhrs.length, 4);
  });

  it('a Scottish Pass and Eat Safe, an establishment without geocode, a port health authority', async () => {
    serveAll();
    const o = up.syncOptions();
    await syncDataset('food-hygiene', o);
    const safe = readXml('FHRS760en-GB.xml').filter((e) => e.rating === 'Pass and Eat Safe');
    expect(safe).toHaveLength(2);
    const d = await get(o.mirrorDir, `/v1/food-hygiene/establishments/${safe[0]!.id}`);
    expect(d.data).toMatchObject({
      fhrs_id: safe[0]!.id, business_name: safe[0]!.name, scheme: 'fhis',
      rating: { value: 'pass_and_eat_safe', numeric: null, published: 'Pass and Eat Safe' }, scores: null,
      local_authority: { code: '760', name: 'Aberdeen City' },
    });
    expect(d.meta.caveat).toMatch(/ratings\.food\.gov\.uk is the authoritative current rating/);
    const list = await get(o.mirrorDir, '/v1/food-hygiene/establishments', { rating: 'pass_and_eat_safe' });
    expect(list.data.map((e: any) => e.fhrs_id).sort()).toEqual(safe.map((e) => e.id).sort());

    const noGeo = readXml('FHRS648en-GB.xml').filter((e) => e.lat === null);
    expect(noGeo.map((e) => e.id)).toContain(1280734);
    const eco = await get(o.mirrorDir, '/v1/food-hygiene/establishments/1280734');
    expect(eco.data).toMatchObject({
      location: null, scores: null, rating: { value: 'awaiting_inspection', numeric: null, date: null, published: 'AwaitingInspection' },
      address: { lines: ['Warehouse D/ C.A.T Wash', 'Kinkerdale Road', 'TS6 6UD'], postcode: 'TS6 6UD', postcode_source: 'AddressLine3', postcode_published: null },
    });

    const port = await get(o.mirrorDir, '/v1/food-hygiene/establishments', { local_authority: 'goole', per_page: '100' });
    const hull = readXml('FHRS626en-GB.xml');
    expect(port.pagination.total).toBe(hull.length);
    expect(port.data.map((e: any) => e.fhrs_id).sort()).toEqual(hull.map((e) => e.id).sort());
  });

  it('an incremental sync fetches only the authority whose date changed; a removed authority disappears', async () => {
    serveAll();
    const o = up.syncOptions();
    await syncDataset('food-hygiene', o);
    // River Tees republished: one establishment gone, one re-rated
    const text = readFileSync(join(FIXTURE_DIR, 'FHRS648en-GB.xml'), 'utf8');
    const blocks = text.split('<EstablishmentDetail>');
    const dropped = Number(/<FHRSID>(\d+)<\/FHRSID>/.exec(blocks[1]!)![1]);
    const changed = [blocks[0], ...blocks.slice(2)].join('<EstablishmentDetail>')
      .replace('<FHRSID>1018649</FHRSID>', '<FHRSID>1018649</FHRSID>')
      .replace(/(<FHRSID>1018649<\/FHRSID>[\s\S]*?<RatingValue>)4(<\/RatingValue><RatingKey>)fhrs_4_en-GB/, '$12$2fhrs_2_en-GB');
    expect(changed).not.toBe(text);
    up.server.set('/food-hygiene/api/open-data-files/FHRS648en-GB.xml', changed);
    const entries = AUTHORITIES.filter((a) => a.code !== '626').map((a) => (a.code === '648' ? { ...a, published: '2020-09-22T00:30:00' } : a));
    up.server.set('/food-hygiene/Authorities', authoritiesJson(base(), entries), { contentType: 'application/json' });
    const before = up.server.requests.length;
    const r = await syncDataset('food-hygiene', o);
    expect(r.status).toBe('synced');
    expect(r.mode).toBe('incremental');
    const fetched = up.server.requests.slice(before).map((q) => q.path).filter((p) => p.endsWith('.xml'));
    expect(fetched).toEqual(['/food-hygiene/api/open-data-files/FHRS648en-GB.xml']);
    const tees = readXml('FHRS648en-GB.xml');
    const total = all.length - readXml('FHRS626en-GB.xml').length - 1;
    expect(r.rows_total).toBe(total);
    expect((await getRoute(`/v1/food-hygiene/establishments/${dropped}`, {}, ctxFor(o.mirrorDir))).status).toBe(404);
    expect((await get(o.mirrorDir, '/v1/food-hygiene/establishments/1018649')).data.rating).toMatchObject({ value: '2', numeric: 2 });
    expect((await get(o.mirrorDir, '/v1/food-hygiene/statistics', { local_authority: '648' })).data.establishment_count).toBe(tees.length - 1);
    // the removed authority is not loaded any more: 404 naming the command that lists those loaded (issue 37), not a count of 0
    const gone = await getRoute('/v1/food-hygiene/statistics', { local_authority: '626' }, ctxFor(o.mirrorDir));
    expect([gone.status, (gone.envelope as any).error.code]).toEqual([404, 'not_found']);
    expect((gone.envelope as any).error.message).toContain("'publicdata food-hygiene authorities' lists those loaded");
    const auths = await get(o.mirrorDir, '/v1/food-hygiene/authorities');
    expect(auths.data.map((a: any) => a.code).sort()).toEqual(['314', '648', '760']);
    // the same list again: nothing to do
    const again = await syncDataset('food-hygiene', o);
    expect(again.status).toBe('up_to_date');
  });

  it('a malformed file among good ones is a reject naming the authority; the others load, and its previous rows stay', async () => {
    serveAll();
    const o = up.syncOptions();
    const cut = readFileSync(join(FIXTURE_DIR, 'FHRS626en-GB.xml'), 'utf8').slice(0, 4000);
    up.server.set('/food-hygiene/api/open-data-files/FHRS626en-GB.xml', cut);
    const r = await syncDataset('food-hygiene', o);
    expect(r.status).toBe('synced');
    expect(r.rows_loaded).toBe(all.length - 8);
    expect(r.rows_rejected).toBe(8); // the list's EstablishmentCount of 626
    await closeAll();
    const conn = await openDataset(FOOD_HYGIENE_INFO, o.mirrorDir);
    const rejects = await query(conn, 'SELECT file, reason FROM rejects');
    expect(rejects).toHaveLength(1);
    expect(rejects[0]!.file).toBe('FHRS626en-GB.xml');
    expect(String(rejects[0]!.reason)).toMatch(/^authority 626 \(Hull and Goole Port\): malformed XML/);
    const auths = await get(o.mirrorDir, '/v1/food-hygiene/authorities');
    expect(auths.data.map((a: any) => a.code).sort()).toEqual(['314', '648', '760']);

    // fixed upstream, then broken again on a later date: the last good rows answer
    up.server.setFile('/food-hygiene/api/open-data-files/FHRS626en-GB.xml', join(FIXTURE_DIR, 'FHRS626en-GB.xml'));
    up.server.set('/food-hygiene/Authorities', authoritiesJson(base(), AUTHORITIES.map((a) => (a.code === '626' ? { ...a, published: '2020-11-05T00:00:00' } : a))), { contentType: 'application/json' });
    expect((await syncDataset('food-hygiene', o)).rows_total).toBe(all.length);
    up.server.set('/food-hygiene/api/open-data-files/FHRS626en-GB.xml', cut);
    up.server.set('/food-hygiene/Authorities', authoritiesJson(base(), AUTHORITIES.map((a) => (a.code === '626' ? { ...a, published: '2020-11-06T00:00:00' } : a))), { contentType: 'application/json' });
    const third = await syncDataset('food-hygiene', o);
    expect(third.status).toBe('synced');
    expect(third.rows_total).toBe(all.length);
    expect((await get(o.mirrorDir, '/v1/food-hygiene/statistics', { local_authority: '626' })).data.establishment_count).toBe(8);
  });

  it('--authorities narrows the sync, meta says so, and a later full sync of the same list loads the rest', async () => {
    serveAll();
    const o = up.syncOptions();
    const r = await syncDataset('food-hygiene', { ...o, lists: { authorities: ['648'] } });
    expect(r.rows_total).toBe(readXml('FHRS648en-GB.xml').length);
    const s = await get(o.mirrorDir, '/v1/food-hygiene/establishments');
    expect(s.meta.note).toMatch(/only the authorities 648/);
    const r2 = await syncDataset('food-hygiene', o);
    expect(r2.status).toBe('synced');
    expect(r2.rows_total).toBe(all.length);
    await expect(syncDataset('food-hygiene', { ...o, lists: { authorities: ['999'] } })).rejects.toThrow(/999 not in the authorities list/);
  });

  it("an authority's scheme is the one its file states (<SchemeType>), not the list's number", async () => {
    // The list's SchemeType codes (1, 2) are not confirmed by a source; Aberdeen City's file says FHIS.
    serveAll(AUTHORITIES.map((a) => (a.code === '760' ? { ...a, scheme: 1 } : a)));
    const o = up.syncOptions();
    expect((await syncDataset('food-hygiene', { ...o, lists: { authorities: ['760'] } })).status).toBe('synced');
    const fileSays = /<SchemeType>(\w+)<\/SchemeType>/.exec(readFileSync(join(FIXTURE_DIR, fileName('760')), 'utf8'))![1]!.toLowerCase();
    expect(fileSays).toBe('fhis');
    expect((await get(o.mirrorDir, '/v1/food-hygiene/authorities')).data.map((a: any) => [a.code, a.scheme])).toEqual([['760', fileSays]]);
  });

  it('--from a folder of the files loads exactly those files', async () => {
    const o = up.syncOptions();
    const r = await syncDataset('food-hygiene', { ...o, from: FIXTURE_DIR });
    expect(r.status).toBe('synced');
    expect(r.rows_total).toBe(all.length);
    const auths = await get(o.mirrorDir, '/v1/food-hygiene/authorities');
    expect(auths.data.find((a: any) => a.code === '760')).toMatchObject({ name: 'Aberdeen City', scheme: 'fhis', establishment_count: 42 });
  });

  it('--from the authorities list: its files downloaded from where it names them; given beside it, read there (no request)', async () => {
    serveAll();
    const o = up.syncOptions();
    const dir = join(o.cacheDir, '..', 'from-list');
    mkdirSync(dir, { recursive: true });
    // the list alone: FileNames on the local server (a list given as a file once failed with 'Invalid URL')
    writeFileSync(join(dir, 'authorities.json'), authoritiesJson(base(), AUTHORITIES));
    const before = up.server.requests.length;
    const r = await syncDataset('food-hygiene', { ...o, from: join(dir, 'authorities.json') });
    expect([r.status, r.rows_total]).toEqual(['synced', all.length]);
    expect(up.server.requests.slice(before).map((q) => q.path).sort()).toEqual(AUTHORITIES.map((a) => `/food-hygiene/api/open-data-files/${fileName(a.code)}`).sort());
    // the list with the files beside it, its FileNames on a host nothing answers: read from the folder
    const o2 = up.syncOptions();
    const dir2 = join(o2.cacheDir, '..', 'from-folder');
    mkdirSync(dir2, { recursive: true });
    writeFileSync(join(dir2, 'authorities.json'), authoritiesJson('http://127.0.0.1:9/food-hygiene', [...AUTHORITIES, { ...AUTHORITIES[0]!, code: '9001', name: 'Listedshire', count: 5 }]));
    for (const a of AUTHORITIES) writeFileSync(join(dir2, fileName(a.code)), readFileSync(join(FIXTURE_DIR, fileName(a.code))));
    const before2 = up.server.requests.length;
    const r2 = await syncDataset('food-hygiene', { ...o2, from: dir2 });
    // the four files loaded; 9001's file is neither beside the list nor reachable: rejected by name
    expect([r2.status, r2.rows_total]).toEqual(['synced', all.length]);
    expect(up.server.requests.length).toBe(before2);
    const s = await get(o2.mirrorDir, '/v1/food-hygiene/statistics', { local_authority: '9001' });
    expect(s.data.establishment_count).toBeNull();
  });

  it("a list from the network naming a local file (file:///…) gets no local read: that authority is a reject, 'download failed'", async () => {
    serveAll();
    const doc = JSON.parse(authoritiesJson(base(), [...AUTHORITIES, { ...AUTHORITIES[2]!, code: '9002', name: 'Localshire', count: 5 }]));
    // a real FSA file on this machine, named by a file: URL in a list served over HTTP
    doc.authorities[4].FileName = pathToFileURL(join(FIXTURE_DIR, fileName('648'))).href;
    up.server.set('/food-hygiene/Authorities', JSON.stringify(doc), { contentType: 'application/json' });
    const o = up.syncOptions();
    const r = await syncDataset('food-hygiene', o);
    expect([r.status, r.rows_total]).toEqual(['synced', all.length]);
    const rejects = await query<{ file: string; reason: string }>(await openDataset(FOOD_HYGIENE_INFO, o.mirrorDir), 'SELECT file, reason FROM rejects');
    expect(rejects.map((x) => x.file)).toEqual([fileName('648')]);
    expect(rejects[0]!.reason).toMatch(/^authority 9002 \(Localshire\): download failed: /);
  });

  it('an FHRSID in two authorities\' files is kept once (the newer rating) and the other copy is a reject', async () => {
    const o = up.syncOptions();
    const dir = join(o.cacheDir, '..', 'from');
    mkdirSync(dir, { recursive: true });
    const tees = readXml('FHRS648en-GB.xml');
    const hull = readXml('FHRS626en-GB.xml');
    const victim = tees.find((e) => e.id === 1018649)!; // rated 2019-06-10 in River Tees
    // Hull's first establishment republished under River Tees' id, with an older rating date
    const hullText = readFileSync(join(FIXTURE_DIR, 'FHRS626en-GB.xml'), 'utf8');
    const firstId = hull[0]!.id;
    const clash = hullText.replace(`<FHRSID>${firstId}</FHRSID>`, `<FHRSID>${victim.id}</FHRSID>`)
      .replace(/(<FHRSID>1018649<\/FHRSID>[\s\S]*?<RatingDate>)[^<]*(<\/RatingDate>)/, '$12001-01-01$2');
    expect(clash).toContain('<RatingDate>2001-01-01</RatingDate>');
    writeFileSync(join(dir, 'FHRS626en-GB.xml'), clash);
    writeFileSync(join(dir, 'FHRS648en-GB.xml'), readFileSync(join(FIXTURE_DIR, 'FHRS648en-GB.xml')));
    const r = await syncDataset('food-hygiene', { ...o, from: dir });
    expect(r.rows_total).toBe(tees.length + hull.length - 1);
    expect(r.rows_rejected).toBe(1);
    const d = await get(o.mirrorDir, `/v1/food-hygiene/establishments/${victim.id}`);
    expect(d.data).toMatchObject({ business_name: victim.name, local_authority: { code: '648' } });
    await closeAll();
    const conn = await openDataset(FOOD_HYGIENE_INFO, o.mirrorDir);
    expect(await query(conn, 'SELECT file, raw, reason FROM rejects')).toEqual([
      { file: 'authority 626', raw: String(victim.id), reason: `FHRSID ${victim.id} is also in the file of authority 648, whose copy is kept` },
    ]);
  });

  it('asks the FSA API for the list with x-api-version: 2', async () => {
    const seen: Array<{ url: string; version: string | undefined }> = [];
    const server = createServer((req, res) => {
      seen.push({ url: req.url ?? '', version: req.headers['x-api-version'] as string | undefined });
      if (req.url === '/Authorities') {
        if (req.headers['x-api-version'] !== '2') return void res.writeHead(400).end('no version');
        const { port } = server.address() as AddressInfo;
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(authoritiesJson(`http://127.0.0.1:${port}`, AUTHORITIES.filter((a) => a.code === '648')));
      }
      res.writeHead(200).end(readFileSync(join(FIXTURE_DIR, 'FHRS648en-GB.xml')));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const { port } = server.address() as AddressInfo;
      const o = up.syncOptions();
      const r = await syncDataset('food-hygiene', { ...o, env: { PUBLICDATA_UPSTREAM_FOOD_HYGIENE: `http://127.0.0.1:${port}` } });
      expect(r.rows_total).toBe(readXml('FHRS648en-GB.xml').length);
      expect(seen.map((x) => [x.url, x.version])).toEqual([['/Authorities', '2'], ['/api/open-data-files/FHRS648en-GB.xml', undefined]]);
    } finally {
      await new Promise((ok) => server.close(ok));
    }
  });

  it('a dropped connection mid-file is resumed, and a server closing after the body is fine', async () => {
    serveAll();
    up.server.fault('/food-hygiene/api/open-data-files/FHRS314en-GB.xml', { dropAfterBytes: 20_000, times: 1 });
    up.server.fault('/food-hygiene/api/open-data-files/FHRS760en-GB.xml', { closeAfterBody: true });
    up.server.fault('/food-hygiene/Authorities', { closeAfterBody: true });
    const o = up.syncOptions();
    const before = up.server.requests.length;
    const r = await syncDataset('food-hygiene', o);
    expect(r.rows_total).toBe(all.length);
    expect(r.rows_rejected).toBe(0);
    const retried = up.server.requests.slice(before).filter((q) => q.path.endsWith('FHRS314en-GB.xml'));
    expect(retried.length).toBe(2);
    expect(retried[1]!.range).toMatch(/^bytes=\d+-$/);
    for (const p of ['FHRS314en-GB.xml', 'FHRS760en-GB.xml', 'Authorities']) up.server.fault(`/food-hygiene/${p.endsWith('.xml') ? 'api/open-data-files/' : ''}${p}`, undefined);
  });

  it('a build that runs out of DuckDB memory_limit is built again with more, said in the log, same rows', async () => {
    serveAll();
    const o = up.syncOptions();
    const messages: string[] = [];
    // 4 MB: less than read_csv's 8 MiB buffer, so the sorted build cannot run in it
    const r = await syncDataset('food-hygiene', { ...o, memoryLimit: '4MB', progress: (e) => void (e.type === 'message' && messages.push(e.text)) });
    expect(r.rows_total).toBe(all.length);
    expect(messages.filter((m) => /ran out of its memory_limit .* building again with \d+MB$/.test(m))).toHaveLength(1);
    const conn = await openDataset(FOOD_HYGIENE_INFO, o.mirrorDir);
    const ids = (await query<{ fhrs_id: number }>(conn, 'SELECT fhrs_id FROM establishments ORDER BY fhrs_id')).map((x) => Number(x.fhrs_id));
    expect(ids).toEqual(all.map((e) => Number(e.id)).sort((a, b) => a - b));
  });

  it('a file with more than 1,000 bad establishments: all counted as rejected, the first 1,000 listed', async () => {
    const o = up.syncOptions();
    const dir = join(o.cacheDir, '..', 'from-many');
    mkdirSync(dir, { recursive: true });
    const text = readFileSync(join(FIXTURE_DIR, 'FHRS314en-GB.xml'), 'utf8');
    const block = /<EstablishmentDetail>[\s\S]*?<\/EstablishmentDetail>/.exec(text)![0];
    const [head, tail] = [text.slice(0, text.indexOf('<EstablishmentDetail>')), text.slice(text.lastIndexOf('</EstablishmentDetail>') + '</EstablishmentDetail>'.length)];
    const bad = 1100;
    const good = 1200;
    const blocks: string[] = [];
    for (let i = 0; i < bad + good; i++) {
      // every other one bad until the bad ones run out
      const id = i % 2 === 0 && i / 2 < bad ? `X${i}` : String(900000 + i);
      blocks.push(block.replace(/<FHRSID>[^<]*<\/FHRSID>/, `<FHRSID>${id}</FHRSID>`));
    }
    expect(blocks.filter((b) => /<FHRSID>X/.test(b))).toHaveLength(bad);
    writeFileSync(join(dir, 'FHRS314en-GB.xml'), head + blocks.join('') + tail);
    const r = await syncDataset('food-hygiene', { ...o, from: dir });
    expect(r.rows_total).toBe(good);
    expect(r.rows_rejected).toBe(bad);
    await closeAll();
    const conn = await openDataset(FOOD_HYGIENE_INFO, o.mirrorDir);
    const listed = await query<{ reason: string }>(conn, 'SELECT reason FROM rejects ORDER BY rowid');
    expect(listed).toHaveLength(1000);
    expect(listed[0]!.reason).toBe(`authority 314, establishment 1: FHRSID 'X0' is not a whole number`);
    expect(listed[999]!.reason).toBe(`authority 314, establishment 1999: FHRSID 'X1998' is not a whole number`);
  });
});
