/**
 * The area page (src/pages/assets/area.js) in headless Chromium on no domain at all: a file written by
 * `renderAreaHtml` from an area answer made up here (the page draws whatever sections an answer has),
 * opened offline. Every section is listed with its status and drawn as a table with its request paths; a
 * section that is not ok says why; the map draws a layer's points inside the circle (GENERATED collision
 * records: 0.5 km north, serious; 1 km east, slight; 2 km south, fatal, outside the 1.2 km circle). The page
 * over every domain's fixture mirror, served, is test/postcodes/area-page.browser.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { renderAreaHtml, type AreaDocument } from '../../src/pages/area-html.js';
import { browserSkipReason, launchChromium, screenshot, watch } from '../support/browser.js';

const skip = browserSkipReason();
const AT = { latitude: 51.5155, longitude: -0.0922 };
const dLat = (km: number) => km / 110.574;
const dLng = (km: number) => km / (111.32 * Math.cos((AT.latitude * Math.PI) / 180));

const doc: AreaDocument = {
  path: '/v1/area/EC2V%207HH?radius_km=1.2',
  area: {
    data: {
      postcode: { postcode: 'EC2V 7HH', status: 'live', location: AT, local_authority: { code: 'E09000001', name: 'City of London' } },
      sections: {
        alpha: {
          status: 'ok', as_of: '2026-10-31', source: ['/v1/alpha/stats?x=1', '/v1/alpha/more?y=2'], radius_km: 1.2, count: 1234,
          by_kind: { a: 2, b: 5 }, nearest: [{ id: 7, name: 'First place', distance_km: 0.25 }],
          map: [{ layer: 'collisions', paths: ['/v1/alpha/all?year=2022'], clip: true }],
        },
        beta: { status: 'not_synced', sync: 'publicdata sync beta' },
        gamma: { status: 'no_coverage', note: 'Gamma covers Great Britain only.' },
      },
    },
    meta: { radius_km: 1.2, months: 12 },
  },
  points: {
    collisions: {
      path: ['/v1/alpha/all?year=2022'],
      total: null,
      records: [
        { latitude: String(AT.latitude + dLat(0.5)), longitude: String(AT.longitude), collision_severity: 2, collision_severity_label: 'Serious', collision_date: '2022-03-01' },
        { latitude: String(AT.latitude), longitude: String(AT.longitude + dLng(1)), collision_severity: 3, collision_severity_label: 'Slight', collision_date: '2022-04-01' },
        { latitude: String(AT.latitude - dLat(2)), longitude: String(AT.longitude), collision_severity: 1, collision_severity_label: 'Fatal', collision_date: '2022-05-01' },
      ],
    },
  },
};

describe.skipIf(skip !== '')('the area page on no domain, in Chromium', () => {
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    browser = await launchChromium();
    dir = mkdtempSync(join(tmpdir(), 'pd-area-page-'));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('draws every section of the answer, says why one is not ok, and the points inside the circle', async () => {
    const file = join(dir, 'report.html');
    writeFileSync(file, renderAreaHtml(doc, 'test'));
    const ctx = await browser.newContext({ offline: true, viewport: { width: 1280, height: 1000 } });
    const page = await ctx.newPage();
    const w = watch(page, undefined);
    await page.goto(pathToFileURL(file).href);
    await page.locator('#map svg.mapsvg').waitFor();
    // the sections, in the answer's order, each with its status
    expect(await page.$$eval('.toc a', (as) => as.map((a) => a.getAttribute('href')))).toEqual(['#sec-alpha', '#sec-beta', '#sec-gamma']);
    expect(await page.$$eval('.toc .st', (ss) => ss.map((x) => x.textContent))).toEqual(['ok', 'not_synced', 'no_coverage']);
    expect(await page.locator('#sec-beta').textContent()).toContain('publicdata sync beta');
    expect(await page.locator('#sec-gamma').textContent()).toContain('Gamma covers Great Britain only.');
    // an ok section: its figures as a table, its date, its request paths (text in a file: no server)
    const alpha = (await page.locator('#sec-alpha').textContent())!;
    for (const t of ['As of 2026-10-31', 'count', '1,234', 'by kind', 'First place', '/v1/alpha/stats?x=1', '/v1/alpha/more?y=2']) expect(alpha).toContain(t);
    expect(await page.locator('#sec-alpha .src code').evaluateAll((cs) => cs.map((c) => c.textContent))).toEqual(['/v1/alpha/stats?x=1', '/v1/alpha/more?y=2']);
    // the map: the two collisions inside 1.2 km, the serious one filled; no other layer has points
    expect(await page.locator('[data-layer="collisions"] path').count()).toBe(2);
    expect(await page.locator('[data-layer="collisions"] path.severe').count()).toBe(1);
    for (const l of ['crime', 'schools', 'food']) expect(await page.locator(`[data-layer="${l}"] > *`).count()).toBe(0);
    expect(await page.locator('.legend').textContent()).toContain('collisions, fatal or serious: 1');
    expect(await page.locator('#map-d').textContent()).toContain('within 1.2 km of EC2V 7HH');
    await screenshot(page, 'area-no-domain');
    expect(w.errors).toEqual([]);
    expect(w.foreign).toEqual([pathToFileURL(file).href]);
    await ctx.close();
  }, 120_000);
});
