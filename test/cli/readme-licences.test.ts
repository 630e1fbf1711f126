/**
 * The README's licence table names every dataset of the registry with its publisher and the exact
 * attribution `mirror status` and `meta` give (issue 37: the list named only some publishers). Read from
 * the registry, so a dataset added or removed (npm run check:domains) is checked as it is.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attributionFor } from '../../src/mirror/catalog.js';
import { DATASETS } from '../../src/registry.js';
import { PRODUCTION_DOMAINS } from '../support/production.js';

const README = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const real = new Set(PRODUCTION_DOMAINS.flatMap((d) => d.datasets.map((e) => e.info.name)));

describe('README: licences and attribution', () => {
  it.each(DATASETS.filter((d) => real.has(d.name)).map((d) => [d.name, d] as const))('%s: its row gives the publisher and the attribution', (name, d) => {
    // {year} is the year of the answer: any four digits in the README
    const attribution = escape(d.attribution).replaceAll(escape('{year}'), '\\d{4}');
    expect(README).toMatch(new RegExp(`^\\| \`${escape(name)}\` \\| ${escape(d.publisher)} \\| ${attribution} \\|$`, 'm'));
  });

  it('every {year} of an attribution is filled in (one may name two: Ordnance Survey and Royal Mail)', () => {
    for (const d of DATASETS) expect(attributionFor(d, 2026), d.name).not.toContain('{year}');
    expect(attributionFor({ ...DATASETS[0]!, attribution: 'a {year}; b {year}' }, 2026)).toBe('a 2026; b 2026');
  });
});
