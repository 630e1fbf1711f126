/** price-paid's publisher index page (moved from test/sync/download.test.ts: a domain's own parser). */
import { describe, expect, it } from 'vitest';

describe('price-paid index page', () => {
  it('finds the file links and a publication date', async () => {
    const { parseIndexPage } = await import('../../src/domains/property/sync/price-paid.js');
    const html = `<meta name="govuk:updated-at" content="2026-10-28T09:30:00+00:00">
      <a href="http://prod.publicdata.landregistry.gov.uk.s3-website-eu-west-1.amazonaws.com/pp-complete.csv">Single file</a>
      <a href="http://prod.publicdata.landregistry.gov.uk.s3-website-eu-west-1.amazonaws.com/pp-monthly-update-new-version.csv">Monthly</a>
      <a href="/pp-2024.csv">2024</a><a href="other.csv">x</a>`;
    const p = parseIndexPage(html, 'https://www.gov.uk/government/statistical-data-sets/price-paid-data-downloads');
    expect(p.published).toBe('2026-10-28');
    expect([...p.links.entries()]).toEqual([
      ['pp-complete.csv', 'http://prod.publicdata.landregistry.gov.uk.s3-website-eu-west-1.amazonaws.com/pp-complete.csv'],
      ['pp-monthly-update-new-version.csv', 'http://prod.publicdata.landregistry.gov.uk.s3-website-eu-west-1.amazonaws.com/pp-monthly-update-new-version.csv'],
      ['pp-2024.csv', 'https://www.gov.uk/pp-2024.csv'],
    ]);
  });
});
