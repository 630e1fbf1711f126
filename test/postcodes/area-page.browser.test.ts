/**
 * `/area/{postcode}` in headless Chromium against serve on the fixture mirror: the map draws as many crime,
 * school and food points as the fixture holds within the radius (counted from the fixture files in
 * area-page-fixture.ts, or for schools the schools route's own total), its totals are the JSON answers', the
 * key typed is sent only as a Bearer header (never in a URL, never in localStorage), no console error, no
 * request leaves the origin. Screenshots (desktop, phone, print) go to test-artifacts/.
 *
 * The postcodes are the fixture mirror's (the generated ONSPD edition of test/postcodes, placed where the
 * other domains' fixtures hold records); the area answers are the server's own GET /v1/area/{postcode}.
 * This is the area page over every domain's fixture mirror (the postcodes domain's, since the area route is
 * its own): it reads the crime and food hygiene fixtures, so it holds only with those domains registered.
 * The page with whatever sections exist, on no domain at all, is test/pages/area.browser.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import { runCli } from '../support/cli.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserSkipReason, launchChromium, paints, screenshot, watch } from '../support/browser.js';
import { fakeKey } from '../support/keys.js';
import { useFixtureMirror } from '../support/route-samples.js';
import { keyLine, startTestServer, type TestServer } from '../support/serve.js';

interface Place {
  postcode: string;
  lat: number;
  lng: number;
  radiusKm: number;
}
import { crimesWithin, foodWithin } from './area-page-fixture.js';

const skip = browserSkipReason();
const KEY = fakeKey('live', 'area0page0browser0test');
// lat/lng as the fixture directory (test/fixtures/postcodes/GENERATED-ONSPD_AUG_2026) gives them
const CITY: Place = { postcode: 'EC2V 7HH', lat: 51.5155, lng: -0.0922, radiusKm: 1.2 };
const GODALMING: Place = { postcode: 'GU7 1HR', lat: 51.1856, lng: -0.6115, radiusKm: 5 };
const LEEDS: Place = { postcode: 'LS8 3BS', lat: 53.82621, lng: -1.52148, radiusKm: 3 };
const NEWCASTLE: Place = { postcode: 'NE4 9DN', lat: 54.965, lng: -1.64, radiusKm: 5 };

describe.skipIf(skip !== '')('/area/{postcode} in Chromium', () => {
  const mirror = useFixtureMirror('pd-pages-area-');
  let browser: Browser;
  let s: TestServer;
  let origin: string;
  const get = async (path: string) => {
    const r = await fetch(`${origin}${path}`, { headers: { Authorization: `Bearer ${KEY}` } });
    if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
    return (await r.json()) as { data: unknown; pagination?: { total: number } };
  };
  beforeAll(async () => {
    s = await startTestServer({ mirrorDir: join(mirror.dir(), 'mirror'), keysText: keyLine(KEY, { per_minute: 10_000, monthly_credits: 100_000 }) });
    origin = new URL(s.url).origin;
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close(1000);
  });

  /** Open the page for a place, give the key when asked, wait for the map; the JSON answer it drew from. */
  async function open(p: Place, viewport = { width: 1280, height: 1000 }): Promise<{ page: Page; w: ReturnType<typeof watch>; answer: any }> {
    const answer = (await get(`/v1/area/${encodeURIComponent(p.postcode)}?radius_km=${p.radiusKm}`)) as any;
    const page = await browser.newPage({ viewport });
    const w = watch(page, origin);
    await page.goto(`${origin}/area/${encodeURIComponent(p.postcode)}?radius_km=${p.radiusKm}`);
    await page.getByRole('textbox', { name: 'API key' }).fill(KEY);
    await page.getByRole('button', { name: 'Show the area' }).click();
    await page.locator('#map svg.mapsvg').waitFor({ timeout: 60_000 });
    return { page, w, answer };
  }

  const count = (page: Page, sel: string) => page.locator(sel).count();

  it('City of London: every fixture crime within the radius, coloured by category, totals as the JSON routes say', async () => {
    const { page, w, answer } = await open(CITY);
    expect([answer.data.postcode.location.latitude, answer.data.postcode.location.longitude]).toEqual([CITY.lat, CITY.lng]);
    const want = crimesWithin(CITY.lat, CITY.lng, CITY.radiusKm).length;
    expect(want).toBe(252); // hand-checked: 252 of the file's 342 rows lie within 1.2 km of 51.5155,-0.0922
    expect(await count(page, '[data-layer="crime"] circle')).toBe(want);
    expect(answer.data.sections.crime.total).toBe(want);
    expect(await page.locator('.legend').textContent()).toContain(`crimes drawn: ${want} of ${want}`);
    // one colour per category among the seven largest (Okabe-Ito), the legend lists each with its count
    const byCat = (answer.data.sections.crime.by_category as { category_label: string; count: number }[]);
    for (const c of byCat) expect(await page.locator('.legend').textContent()).toContain(`${c.category_label}: ${c.count}`);
    // charts and tables, each figure linked to its request path
    await expect.poll(() => count(page, '#chart-crime-month rect.bar')).toBe(answer.data.sections.crime.by_month.length);
    const prop = answer.data.sections.property;
    const pp = prop.status === 'ok' && prop.price_paid ? (prop.price_paid.sector?.sales ? prop.price_paid.sector : prop.price_paid.district) : null;
    expect(await count(page, '#chart-sales-type rect.bar')).toBe(pp ? pp.by_property_type.length : 0);
    const m = answer.data.sections.crime.months;
    expect(await page.locator('#map .src a').first().getAttribute('href')).toBe(`/v1/crime/street?lat=51.5155&lng=-0.0922&radius_km=1.2&month_from=${m.from}&month_to=${m.to}`);
    expect(await page.locator('#sec-crime .src a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(answer.data.sections.crime.source);
    // every section's status is shown; a section that is not ok says why
    for (const [name, sec] of Object.entries(answer.data.sections as Record<string, { status: string; sync?: string }>)) {
      expect(await page.locator(`.toc a[href="#sec-${name}"] + .st`).textContent()).toBe(sec.status);
      if (sec.sync) expect(await page.locator(`#sec-${name}`).textContent()).toContain(sec.sync);
    }
    // the key: only in Authorization headers, never in a URL or localStorage
    const api = w.requests.filter((r) => new URL(r.url()).pathname.startsWith('/v1/'));
    expect(api.length).toBeGreaterThan(3);
    for (const r of api) {
      expect(r.url()).not.toContain(KEY.slice(-10));
      expect(await r.headerValue('authorization')).toBe(`Bearer ${KEY}`);
    }
    expect(await page.evaluate(() => JSON.stringify(localStorage))).toBe('{}');
    // landmarks and text alternatives
    expect(await count(page, 'main')).toBe(1);
    expect(await page.locator('#map svg.mapsvg').getAttribute('role')).toBe('img');
    expect(await page.locator('#map-d').textContent()).toContain(`${want} crimes`);
    const p = await paints(page);
    console.log(`/area first paint ${p.fp?.toFixed(0)} ms, first contentful paint ${p.fcp?.toFixed(0)} ms`);
    await screenshot(page, 'area');
    await screenshot(page, 'area-top', false);
    await page.emulateMedia({ media: 'print' });
    await screenshot(page, 'area-print');
    expect(w.errors).toEqual([]);
    expect(w.foreign).toEqual([]);
    await page.close();
  }, 180_000);

  it('Godalming: every fixture food premises within the radius, those rated 0 to 2 marked', async () => {
    const { page, w, answer } = await open(GODALMING);
    const food = foodWithin(GODALMING.lat, GODALMING.lng, GODALMING.radiusKm);
    expect(food.length).toBe(11); // hand-checked from FHRS314en-GB.xml
    expect(answer.data.sections.food_hygiene.count).toBe(food.length);
    expect(await count(page, '[data-layer="food"] path')).toBe(food.length);
    const low = food.filter((f) => ['0', '1', '2'].includes(f.rating)).length;
    expect(await count(page, '[data-layer="food"] path.low')).toBe(low);
    expect(await page.locator('.legend').textContent()).toContain(`food premises rated 0 to 2: ${low}`);
    expect(w.errors).toEqual([]);
    expect(w.foreign).toEqual([]);
    await page.close();
  }, 180_000);

  it('Leeds on a phone: every school the schools route finds within the radius; the page fits the width', async () => {
    const { page, w, answer } = await open(LEEDS, { width: 390, height: 844 });
    const total = answer.data.sections.schools.count as number;
    expect(total).toBeGreaterThan(0);
    expect(await count(page, '[data-layer="schools"] rect')).toBe(total);
    // no horizontal scrolling of the page itself (wide tables scroll inside their own box)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // keyboard: the drawn page's heading has the focus; from the top, the skip link is the first stop
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    expect(await page.evaluate(() => document.querySelector('a[href], button, input')?.textContent)).toBe('Skip to content');
    await page.locator('.skip').focus();
    await page.keyboard.press('Enter');
    expect(new URL(page.url()).hash).toBe('#main');
    await screenshot(page, 'area-phone');
    expect(w.errors).toEqual([]);
    expect(w.foreign).toEqual([]);
    await page.close();
  }, 180_000);

  it('the --html file: the same page with the data embedded renders the same with the network off', async () => {
    const served = await open(CITY);
    // the command, in process, on the same fixture mirror
    const dir = mkdtempSync(join(tmpdir(), 'pd-area-html-'));
    const file = join(dir, 'report.html');
    const r = await runCli(['area', CITY.postcode, '--radius-km', String(CITY.radiusKm), '--html', file], { env: mirror.env() });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const embedded = JSON.parse(/<script type="application\/json" id="area-data">([\s\S]*?)<\/script>/.exec(readFileSync(file, 'utf8'))![1]!);
    expect(embedded.area.data.sections.crime.total).toBe(served.answer.data.sections.crime.total);
    expect(embedded.points.crime.records.length).toBe(crimesWithin(CITY.lat, CITY.lng, CITY.radiusKm).length);
    const ctx = await browser.newContext({ offline: true, viewport: { width: 1280, height: 1000 } });
    const page = await ctx.newPage();
    const w = watch(page, undefined);
    await page.goto(pathToFileURL(file).href);
    await page.locator('#map svg.mapsvg').waitFor();
    const fileUrl = pathToFileURL(file).href;
    // nothing but the file itself was asked for
    expect(w.foreign).toEqual([fileUrl]);
    expect(w.errors).toEqual([]);
    // the same drawing: points per layer, the map's description, the legend, every section's text
    const same = async (p: Page) => ({
      points: await p.$$eval('[data-layer]', (gs) => gs.map((g) => `${g.getAttribute('data-layer')} ${g.childElementCount}`)),
      desc: await p.locator('#map-d').textContent(),
      legend: await p.locator('.legend').textContent(),
      sections: await p.$$eval('section.sec', (ss) => ss.map((x) => (x.textContent ?? '').replace(/\s+/g, ' '))),
    });
    const a = await same(served.page);
    const b = await same(page);
    expect(b).toEqual(a);
    expect(a.points).toContain(`crime ${crimesWithin(CITY.lat, CITY.lng, CITY.radiusKm).length}`);
    await screenshot(page, 'area-html-offline');
    await ctx.close();
    await served.page.close();
    rmSync(dir, { recursive: true, force: true });
  }, 180_000);

  it("Newcastle: the map asks the records behind the road safety section's summary (the same circle on /nearby)", async () => {
    const { page, w, answer } = await open(NEWCASTLE);
    const rs = answer.data.sections.road_safety;
    expect(rs.status).toBe('ok');
    // the section's summary request as the list of its records; the page asked it (with its own paging)
    const want = (rs.source as string[]).filter((p) => p.startsWith('/v1/vehicles/road-safety/nearby/summary?')).map((p) => p.replace('/nearby/summary?', '/nearby?'));
    expect(want).toHaveLength(1);
    const asked = new Set(w.requests.map((r) => r.url().slice(origin.length)).filter((u) => u.includes('/road-safety/nearby?')).map((u) => u.replace(/&per_page=\d+|&page=\d+/g, '')));
    expect([...asked].sort()).toEqual([...want].sort());
    expect(await count(page, '[data-layer="collisions"] path')).toBe(rs.collisions);
    expect(w.errors).toEqual([]);
    expect(w.foreign).toEqual([]);
    await page.close();
  }, 180_000);
});
