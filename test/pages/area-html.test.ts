/**
 * The self-contained area file (src/pages/area-html.ts) without a browser and without any domain: an area
 * answer written here, with made-up sections, since the page draws whatever sections an answer has. The map's
 * requests are those the sections list under `map` (nothing else is asked), every page of each and no more
 * than the cap, a clipped layer keeps only the records in the circle; the answers are embedded so no text in
 * them can end the script, and the CSP hashes are those of the inline script and style.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { areaDocument, mapLayers, POINT_PAGES, renderAreaHtml, type AreaDocument } from '../../src/pages/area-html.js';

const AT = { latitude: 53.8256, longitude: -1.5118 };
const data = {
  postcode: { postcode: 'LS8 3BS', location: AT },
  sections: {
    alpha: { status: 'ok', radius_km: 1, map: [{ layer: 'dots', paths: ['/v1/alpha/points?lat=53.8256&lng=-1.5118&radius_km=1'] }] },
    beta: { status: 'ok', count: 3, map: [{ layer: 'squares', paths: ['/v1/beta/places?near=1'] }] },
    gamma: { status: 'ok', map: [{ layer: 'marks', paths: ['/v1/gamma/all?year=2023', '/v1/gamma/all?year=2024'], clip: true }] },
    delta: { status: 'not_synced', sync: 'publicdata sync delta', map: [{ layer: 'never', paths: ['/v1/delta/x'] }] },
    epsilon: { status: 'ok', count: 0 },
  },
};

describe('area --html', () => {
  it("asks only what the ok sections list under map; nothing without a location", () => {
    expect(mapLayers(data).map((l) => l.layer)).toEqual(['dots', 'squares', 'marks']);
    expect(mapLayers({ ...data, postcode: { ...data.postcode, location: null } })).toEqual([]);
    expect(mapLayers({ ...data, sections: { epsilon: { status: 'ok' } } })).toEqual([]);
  });

  it('gathers every page of each layer, at most POINT_PAGES; a clipped layer keeps the records inside the circle', async () => {
    const asked: string[] = [];
    // 1 km north of the point is 1/110.574 degrees of latitude: 0.5 km in, 1.5 km out
    const north = (km: number) => String(AT.latitude + km / 110.574);
    const doc = await areaDocument(async (p) => {
      asked.push(p);
      if (p.startsWith('/v1/area/')) return { status: 200, body: { data, meta: { radius_km: 1 } } };
      const page = Number(new URLSearchParams(p.split('?')[1]).get('page'));
      if (p.startsWith('/v1/gamma/')) {
        const year = new URLSearchParams(p.split('?')[1]).get('year');
        const records = year === '2023' ? [{ latitude: north(0.5), longitude: String(AT.longitude) }, { latitude: north(1.5), longitude: String(AT.longitude) }] : [{ latitude: null, longitude: null }];
        return { status: 200, body: { data: records, pagination: { page, per_page: 100, total: records.length, total_pages: 1 } } };
      }
      const pages = p.startsWith('/v1/alpha/') ? 25 : 3;
      return { status: 200, body: { data: [{ n: page }], pagination: { page, per_page: 100, total: pages * 100 - 50, total_pages: pages } } };
    }, '/v1/area/LS8%203BS');
    expect(asked.filter((p) => p.startsWith('/v1/alpha/')).length).toBe(POINT_PAGES);
    expect(asked.filter((p) => p.startsWith('/v1/beta/')).map((p) => p.replace(/.*&per_page/, 'per_page'))).toEqual(['per_page=100&page=1', 'per_page=100&page=2', 'per_page=100&page=3']);
    expect(asked.some((p) => p.startsWith('/v1/delta/'))).toBe(false);
    expect(doc.points.dots!.records.length).toBe(20);
    expect(doc.points.dots!.total).toBe(2450);
    expect(doc.points.squares!.records).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(doc.points.marks).toEqual({ path: ['/v1/gamma/all?year=2023', '/v1/gamma/all?year=2024'], records: [{ latitude: north(0.5), longitude: String(AT.longitude) }], total: null });
    expect(Object.keys(doc.points)).toEqual(['dots', 'squares', 'marks']);
  });

  it('embeds the answers so that no value can end the script, and its CSP allows exactly its own script and style', () => {
    const evil = '</script><script>alert(1)</script>\u2028';
    const doc: AreaDocument = { path: '/v1/area/LS8%203BS', area: { data: { ...data, postcode: { ...data.postcode, postcode: evil } } }, points: {} };
    const html = renderAreaHtml(doc, 'Written <now>');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('<title>&#60;/script&#62;&#60;script&#62;alert(1)&#60;/script&#62;\u2028: area profile');
    expect(html).toContain('Written &#60;now&#62;');
    const json = /<script type="application\/json" id="area-data">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(JSON.parse(json)).toEqual(doc);
    const script = /<script>([\s\S]*?)<\/script>\n<\/body>/.exec(html)![1]!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const hash = (t: string) => `'sha256-${createHash('sha256').update(t).digest('base64')}'`;
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1]!;
    expect(csp).toBe(`default-src 'none'; script-src ${hash(script)}; style-src ${hash(style)}; img-src data:; base-uri 'none'; form-action 'none'`);
  });
});
