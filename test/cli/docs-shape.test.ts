/**
 * Issue 37 ("smaller ones"): the README's first paragraph names every domain, and each domain's doc puts
 * what a user needs first ("## Using it") and the implementation notes after. Domains read from the
 * registry, so one added later is checked as it is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRODUCTION_DOMAINS } from '../support/production.js';

const ROOT = join(import.meta.dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** The README's text from its title to the first list (the opening paragraph). */
const opening = README.slice(README.indexOf('\n') + 1, README.indexOf('\n- ')).replace(/\s+/g, ' ');

/** A domain's docs: docs/<name>.md or docs/<name>-*.md; the postcodes domain's is docs/places.md (spec 5-places.md). */
const DOC_NAMES: Record<string, string> = { postcodes: 'places' };
const docsOf = (domain: string): string[] => {
  const stem = DOC_NAMES[domain] ?? domain;
  return readdirSync(join(ROOT, 'docs')).filter((f) => f === `${stem}.md` || (f.startsWith(`${stem}-`) && f.endsWith('.md')));
};

describe("README's opening paragraph", () => {
  it('names every domain', () => {
    for (const { name } of PRODUCTION_DOMAINS) {
      // a domain as a reader says it: food hygiene, not food-hygiene; the postcodes domain as "every UK postcode"
      const words = name === 'postcodes' ? 'every UK postcode' : name.replace(/-/g, ' ');
      expect(opening, name).toContain(words);
    }
  });
});

describe('domain docs: the user section first', () => {
  const docs = PRODUCTION_DOMAINS.flatMap((d) => docsOf(d.name).map((f) => [d.name, f] as const));

  it('every domain has a doc of its own but calendar (the README alone: two routes of shipped data)', () => {
    const without = PRODUCTION_DOMAINS.map((d) => d.name).filter((n) => docsOf(n).length === 0 && n !== 'calendar');
    expect(without).toEqual([]);
  });

  it.each(docs)('%s: %s has "## Using it" as its first section and "## Implementation notes" after it', (_d, f) => {
    const sections = readFileSync(join(ROOT, 'docs', f), 'utf8').split('\n').filter((l) => l.startsWith('## '));
    expect(sections[0]).toBe('## Using it');
    expect(sections.indexOf('## Implementation notes')).toBeGreaterThan(0);
  });
});
