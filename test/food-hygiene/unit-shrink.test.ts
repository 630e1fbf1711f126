/**
 * Issue 37 (moved from test/sync/unit-shrink.test.ts: the FSA authority unit): a short but well-formed file must not replace its
 * unit without a word; a drop beyond 10% fails the sync and keeps the previous data, unless --allow-shrink.
 * Every expected count is read here from the fixture files, not by the sync.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syncDataset } from '../../src/sync-runner.js';
import { FIXTURE_DIR as FSA_DIR } from './fixture.js';
import { sqlOn } from '../support/mirror-helper.js';
import { shrinkScratch } from '../support/unit-shrink.js';

const { dirFor, opts } = shrinkScratch();

describe('food hygiene: an authority file replaces its rows only if whole; a rejected one keeps them', () => {
  const codes = ['314', '626', '648', '760'];
  const xml = (code: string) => readFileSync(join(FSA_DIR, `FHRS${code}en-GB.xml`), 'utf8');
  const establishments = (text: string) => (text.match(/<EstablishmentDetail>/g) ?? []).length;
  const held = (code: string) => establishments(xml(code));

  async function first(): Promise<string> {
    const src = dirFor('fsa-src');
    for (const c of codes) copyFileSync(join(FSA_DIR, `FHRS${c}en-GB.xml`), join(src, `FHRS${c}en-GB.xml`));
    const mirror = join(dirFor('fsa'), 'mirror');
    await syncDataset('food-hygiene', opts(mirror, src));
    return mirror;
  }
  const perAuthority = async (mirror: string) =>
    Object.fromEntries((await sqlOn(join(mirror, 'food_hygiene.duckdb'), 'SELECT source_code AS c, count(*)::INTEGER AS n FROM establishments GROUP BY 1')).map((r) => [r.c, r.n]));

  it('a truncated, an empty and a sparse file among good ones: each rejected by name, their authorities keep their previous rows', async () => {
    const mirror = await first();
    const want = Object.fromEntries(codes.map((c) => [c, held(c)]));
    expect(await perAuthority(mirror)).toEqual(want);
    const src = dirFor('fsa-bad');
    for (const c of codes) copyFileSync(join(FSA_DIR, `FHRS${c}en-GB.xml`), join(src, `FHRS${c}en-GB.xml`));
    const t = xml('314');
    writeFileSync(join(src, 'FHRS314en-GB.xml'), t.slice(0, Math.floor(t.length / 2)));
    writeFileSync(join(src, 'FHRS760en-GB.xml'), '');
    // a sparse file (zeros, as a disk-full copy leaves): 4 MB here
    writeFileSync(join(src, 'FHRS648en-GB.xml'), Buffer.alloc(4 * 1024 * 1024));
    const r = await syncDataset('food-hygiene', opts(mirror, src));
    expect(r.status).toBe('synced');
    expect(r.note).toContain('3 authority files rejected (FHRS314en-GB.xml, FHRS648en-GB.xml, FHRS760en-GB.xml): the previous rows of 3 of them kept');
    expect(await perAuthority(mirror)).toEqual(want);
    const rejects = await sqlOn(join(mirror, 'food_hygiene.duckdb'), 'SELECT file FROM rejects ORDER BY file');
    expect(rejects.map((x) => x.file)).toEqual(['FHRS314en-GB.xml', 'FHRS648en-GB.xml', 'FHRS760en-GB.xml']);
  }, 60_000);

  it('a well-formed file with far fewer establishments is refused naming the file; --allow-shrink takes it', async () => {
    const mirror = await first();
    const src = dirFor('fsa-short');
    for (const c of codes) copyFileSync(join(FSA_DIR, `FHRS${c}en-GB.xml`), join(src, `FHRS${c}en-GB.xml`));
    // the 314 file with only its first establishment (well-formed XML)
    const t = xml('314');
    const start = t.indexOf('<EstablishmentDetail>');
    const end = t.indexOf('</EstablishmentDetail>') + '</EstablishmentDetail>'.length;
    const close = t.indexOf('</EstablishmentCollection>');
    writeFileSync(join(src, 'FHRS314en-GB.xml'), t.slice(0, end) + t.slice(close));
    expect(start).toBeGreaterThan(0);
    await expect(syncDataset('food-hygiene', opts(mirror, src))).rejects.toThrow(
      `FHRS314en-GB.xml: authority 314 would go from ${held('314')} rows to 1`,
    );
    expect((await perAuthority(mirror))['314']).toBe(held('314'));
    await syncDataset('food-hygiene', opts(mirror, src, { allowShrink: true }));
    expect((await perAuthority(mirror))['314']).toBe(1);
  }, 60_000);
});

