/**
 * The self-contained area file (src/pages/area-html.ts) without a browser: the answers embedded so no
 * text in them can end the script, the CSP hashes are those of the inline script and style, the point
 * routes asked are the sections' circle and months, every page of them and no more than the cap.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { describe, expect, it } from 'vitest';
import { areaDocument, pointPaths, POINT_PAGES, renderAreaHtml, type AreaDocument } from '../../src/pages/area-html.js';

const data = {
  postcode: { postcode: 'LS8 3BS', location: { latitude: 53.8256, longitude: -1.5118 } },
  sections: {
    crime: { status: 'ok', radius_km: 1, months: { from: '2025-06', to: '2026-05' } },
    schools: { status: 'ok', radius_km: 1 },
    food_hygiene: { status: 'ok', radius_km: 1 },
    road_safety: { status: 'not_synced', sync: 'publicdata sync road-safety' },
  },
};

describe('area --html', () => {
  it('asks the point routes for the same circle and the crime months', () => {
    expect(pointPaths(data)).toEqual({
      crime: '/v1/crime/street?lat=53.8256&lng=-1.5118&radius_km=1&month_from=2025-06&month_to=2026-05',
      schools: '/v1/schools?lat=53.8256&lng=-1.5118&radius_km=1',
      food: '/v1/food-hygiene/establishments?lat=53.8256&lng=-1.5118&radius_km=1&sort=distance',
    });
    expect(pointPaths({ ...data, postcode: { ...data.postcode, location: null } })).toEqual({});
    expect(pointPaths({ ...data, sections: { schools: { status: 'not_synced' } } })).toEqual({});
  });

  it('gathers every page of each layer, at most POINT_PAGES', async () => {
    const asked: string[] = [];
    const doc = await areaDocument(async (p) => {
      asked.push(p);
      if (p.startsWith('/v1/area/')) return { status: 200, body: { data } };
      const page = Number(new URLSearchParams(p.split('?')[1]).get('page'));
      const pages = p.startsWith('/v1/crime/') ? 25 : p.startsWith('/v1/schools') ? 3 : 1;
      return { status: 200, body: { data: [{ n: page }], pagination: { page, per_page: 100, total: pages * 100 - 50, total_pages: pages } } };
    }, '/v1/area/LS8%203BS');
    expect(asked.filter((p) => p.startsWith('/v1/crime/')).length).toBe(POINT_PAGES);
    expect(asked.filter((p) => p.startsWith('/v1/schools')).map((p) => p.replace(/.*&per_page/, 'per_page'))).toEqual(['per_page=100&page=1', 'per_page=100&page=2', 'per_page=100&page=3']);
    expect(doc.points.crime!.records.length).toBe(20);
    expect(doc.points.crime!.total).toBe(2450);
    expect(doc.points.schools!.records).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(doc.points.food!.total).toBe(50);
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

  it('area --html with a string that cannot be a postcode: the 400 of the route, exit 2, no file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pd-area-bad-'));
    const file = join(dir, 'report.html');
    const r = await runCli(['area', 'hello', '--html', file], { env: { PUBLICDATA_DATA_DIR: dir, PUBLICDATA_CONFIG_DIR: dir, NO_COLOR: '1' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid_parameter/);
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('report'))).toEqual([]);
  });
});
