/**
 * `/` and `/docs` in headless Chromium (test/support/browser.ts): swagger-ui draws every route of the
 * registry from the server's own OpenAPI document, "Try it out" answers with the key typed under
 * "Authorize" sent as a Bearer header (never in the URL), no console error, no request leaves the origin.
 * A screenshot goes to test-artifacts/. Skips, saying why, only when no Chromium is installed. The route
 * tried is the test-only example domain's; the routes listed are whatever the registry holds.
 */
// the test-only example domain first (its route is the one tried: no real domain is needed)
import '../support/example-domain/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ROUTES } from '../../src/registry.js';
import { browserSkipReason, launchChromium, paints, screenshot, watch } from '../support/browser.js';
import { fakeKey } from '../support/keys.js';
import { keyLine, startTestServer, type TestServer } from '../support/serve.js';

const skip = browserSkipReason();
const KEY = fakeKey('live', 'docs0page0browser0test');

describe.skipIf(skip !== '')('/docs in Chromium', () => {
  let browser: Browser;
  let s: TestServer;
  let origin: string;
  beforeAll(async () => {
    s = await startTestServer({ keysText: keyLine(KEY, { per_minute: 1000, monthly_credits: 1000 }) });
    origin = new URL(s.url).origin;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close(1000);
  });

  it('lists every route of the registry; Try it out sends the typed key as a Bearer header and answers', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const w = watch(page, origin);
    // a new server: open it once to warm it (the figures quoted are of a warm server's page)
    await page.goto(`${origin}/docs`);
    await page.goto(`${origin}/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 120_000 });
    const drawn = await page.evaluate(() => performance.now());
    await screenshot(page, 'docs-top', false);
    const shown = await page.$$eval('.opblock', (els) =>
      els.map((e) => `${e.querySelector('.opblock-summary-method')?.textContent?.trim()} ${e.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`),
    );
    const want = ROUTES.map((r) => `${r.method} ${r.path.replace(/^\/v1/, '')}`);
    expect(shown.sort()).toEqual([...want].sort());

    // Authorize with the key, then try GET /example/items
    await page.locator('button.authorize').first().click();
    await page.locator('.modal-ux input[type="text"], .modal-ux input[type="password"]').first().fill(KEY);
    await page.locator('.modal-ux button.authorize').click();
    await page.locator('.modal-ux button.btn-done').click();
    const op = page.locator('.opblock-get').filter({ has: page.locator('[data-path="/example/items"]') });
    await op.locator('.opblock-summary').click();
    await op.locator('button.try-out__btn').click();
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/example/items');
    await op.locator('button.execute').click();
    const res = await answered;
    expect(res.status()).toBe(200);
    const sent = res.request();
    expect(await sent.headerValue('authorization')).toBe(`Bearer ${KEY}`);
    expect(sent.url()).not.toContain(KEY);
    expect(sent.url()).not.toContain(KEY.slice(-8));
    await op.locator('.live-responses-table tr.response .response-col_status').first().waitFor();
    expect((await op.locator('.live-responses-table tr.response .response-col_status').first().textContent())?.trim()).toBe('200');
    // the server charged it to the key (1 credit): the request was the API's, authenticated (swagger-ui
    // sends the parameters' defaults)
    expect(s.accessLog.filter((l) => l.includes('example/items'))).toEqual([expect.stringMatching(/ GET \/v1\/example\/items\?page=1&per_page=25 200 [\d.]+ms credits=1 key=gd_live_…/)]);

    const p = await paints(page);
    console.log(`/docs first paint ${p.fp?.toFixed(0)} ms, first contentful paint ${p.fcp?.toFixed(0)} ms, every route drawn by ${drawn.toFixed(0)} ms (warm server)`);
    await screenshot(page, 'docs', false);
    expect(w.errors).toEqual([]);
    expect(w.foreign).toEqual([]);
    await page.close();
  }, 180_000);

  it('/ has the postcode box; it opens /area/{postcode}', async () => {
    const page = await browser.newPage();
    const w = watch(page, origin);
    await page.goto(`${origin}/`);
    await page.getByRole('textbox', { name: 'Postcode' }).fill('LS8 3BS');
    await Promise.all([page.waitForURL(`${origin}/area/LS8%203BS`), page.getByRole('button', { name: 'Area profile', exact: true }).click()]);
    expect(w.foreign).toEqual([]);
    await page.close();
  }, 60_000);
});
