/**
 * Headless Chromium for the page tests (docs/testing.md "Browser tests"): Debian's `chromium` package
 * (which .ci/run installs when missing) driven by playwright-core, which never downloads a browser: it is
 * given the executable. A test file skips, saying why, only when no Chromium is found.
 *
 * Launched as the machine's probe did it: headless, no sandbox (CI runs as root), no GPU, no QUIC, and no
 * background networking, component updates or sync (on a closed network Chromium otherwise keeps trying
 * Google's hosts); playwright gives every launch a new empty profile directory.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';

/** Where screenshots go: git-ignored, kept by CI as artefacts. */
export const ARTIFACTS_DIR = join(__dirname, '..', '..', 'test-artifacts');

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium'];

/** The Chromium executable (PUBLICDATA_CHROMIUM, else Debian's), or undefined. */
export function chromiumPath(): string | undefined {
  const env = process.env.PUBLICDATA_CHROMIUM;
  if (env) return existsSync(env) ? env : undefined;
  return CANDIDATES.find((p) => existsSync(p));
}

/** Why the browser tests skip here ('' when they run). Printed once by each browser test file. */
export function browserSkipReason(): string {
  if (chromiumPath()) return '';
  const why = `browser tests SKIPPED: no Chromium at ${process.env.PUBLICDATA_CHROMIUM ?? CANDIDATES.join(', ')} (install Debian's chromium package, as .ci/run does, or set PUBLICDATA_CHROMIUM)`;
  console.warn(why);
  return why;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath()!,
    headless: true,
    chromiumSandbox: false,
    args: ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** What a page did that a test checks: console errors, uncaught exceptions, requests to other origins. */
export interface PageWatch {
  errors: string[];
  foreign: string[];
  requests: Request[];
}

/** Record a page's console errors, page errors and every request not to `origin` (data: URLs are not requests to anyone). */
export function watch(page: Page, origin: string | undefined): PageWatch {
  const w: PageWatch = { errors: [], foreign: [], requests: [] };
  page.on('console', (m) => {
    if (m.type() === 'error') w.errors.push(m.text());
  });
  page.on('pageerror', (e) => w.errors.push(`pageerror: ${e.message}`));
  page.on('request', (r) => {
    w.requests.push(r);
    const u = r.url();
    if (u.startsWith('data:') || u.startsWith('blob:')) return;
    if (origin === undefined || new URL(u).origin !== origin) w.foreign.push(u);
  });
  return w;
}

/** Save a screenshot under test-artifacts/ (made if missing), the whole page or the viewport; returns its path. */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}

/** First paint and first contentful paint of the page's navigation, ms (performance API). */
export async function paints(page: Page): Promise<{ fp: number | undefined; fcp: number | undefined }> {
  return page.evaluate(() => {
    const byName = (n: string) => performance.getEntriesByType('paint').find((e) => e.name === n)?.startTime;
    return { fp: byName('first-paint'), fcp: byName('first-contentful-paint') };
  });
}
