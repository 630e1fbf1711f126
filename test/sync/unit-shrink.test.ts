/**
 * Issue 37: a short but well-formed file must not replace its unit without a word. Each unit a file
 * replaces (a crime force-month, the schools register, the Ofsted file, an FSA authority) is compared with
 * what the live file held, whatever the file is called; a drop beyond 10% fails the sync (exit non-zero)
 * and keeps the previous data, unless --allow-shrink. A rejected FSA file keeps its authority's rows.
 * Every expected count is read here from the fixture files (a plain line split or a regex), not by the sync.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDuckDB, query } from '../../src/mirror/db.js';
import { syncDataset } from '../../src/sync-runner.js';
import { shrinkAdvice } from '../../sync/integrity.js';
import { runCli } from '../support/cli.js';
import { CRIME_FIXTURES, FILES, rowsOf } from '../crime/fixture.js';
import { GIAS_GENERATED, MI_REAL } from '../schools/fixture.js';
import { FIXTURE_DIR as FSA_DIR } from '../food-hygiene/fixture.js';

const root = mkdtempSync(join(tmpdir(), 'pd-unit-shrink-'));
let n = 0;
const dirFor = (name: string): string => {
  const d = join(root, `${name}-${++n}`);
  mkdirSync(d, { recursive: true });
  return d;
};
const opts = (mirror: string, from: string | string[], extra: Record<string, unknown> = {}) => ({ mirrorDir: mirror, cacheDir: join(root, 'cache'), env: {}, from, ...extra });

/** Rows of a query on a mirror file, opened read-only and closed again (the next sync replaces the file). */
async function count(file: string, sql: string): Promise<Array<Record<string, any>>> {
  const duck = await loadDuckDB();
  const inst = await duck.DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const conn = await inst.connect();
  try {
    return await query(conn, sql);
  } finally {
    conn.closeSync();
    inst.closeSync();
  }
}

/** The first `k` lines of a CSV's text (header included), each ending in its line end: a cut that falls on a line end. */
function firstLines(text: string, k: number): string {
  const lines = text.split(/(?<=\n)/);
  return lines.slice(0, k).join('');
}

describe('crime: a force-month file replaces its unit only if it is not far shorter', () => {
  const street = readFileSync(join(CRIME_FIXTURES, FILES.surrey2401), 'latin1');
  const all = rowsOf(FILES.surrey2401).length;

  it('a street CSV with only its header, or cut at a line end, is refused (exit non-zero) and the force-month keeps its rows', async () => {
    const mirror = join(dirFor('crime'), 'mirror');
    const first = dirFor('crime-src');
    copyFileSync(join(CRIME_FIXTURES, FILES.surrey2401), join(first, '2024-01-surrey-street.csv'));
    copyFileSync(join(CRIME_FIXTURES, FILES.city2401new), join(first, '2024-01-city-of-london-street.csv'));
    await syncDataset('crime', opts(mirror, first));
    const held = async () => (await count(join(mirror, 'crime.duckdb'), "SELECT count(*)::INTEGER AS n FROM street WHERE force = 'surrey' AND month = '2024-01'"))[0]!.n;
    expect(await held()).toBe(all);

    const header = dirFor('crime-header');
    writeFileSync(join(header, '2024-01-surrey-street.csv'), firstLines(street, 1), 'latin1');
    await expect(syncDataset('crime', opts(mirror, header))).rejects.toThrow(
      `2024-01-surrey-street.csv: force-month surrey 2024-01 street would go from ${all} rows to 0 (100.0% fewer)`,
    );
    expect(await held()).toBe(all);

    const cut = dirFor('crime-cut');
    const half = Math.floor(all / 2);
    writeFileSync(join(cut, '2024-01-surrey-street.csv'), firstLines(street, half + 1), 'latin1');
    const env = { PUBLICDATA_DATA_DIR: join(mirror, '..'), PUBLICDATA_CACHE_DIR: join(root, 'cache'), PUBLICDATA_CONFIG_DIR: join(root, 'config') };
    const r = await runCli(['sync', 'crime', '--from', cut], { env });
    expect(r.code, r.stderr + r.stdout).not.toBe(0);
    expect(r.stderr).toContain(`force-month surrey 2024-01 street would go from ${all} rows to ${half}`);
    expect(r.stderr).toContain('--allow-shrink');
    expect(await held()).toBe(all);

    // --allow-shrink: the publisher really did remove them
    await syncDataset('crime', opts(mirror, cut, { allowShrink: true }));
    expect(await held()).toBe(half);
  }, 60_000);
});

describe('schools: the register and the Ofsted file are units, whatever the file is called', () => {
  const gias = readFileSync(GIAS_GENERATED, 'latin1');
  const mi = readFileSync(MI_REAL, 'utf8');

  it('a GIAS file of a newer date with 3 of 7 schools is refused, and an Ofsted file cut at a line end; the previous data answers', async () => {
    const src = dirFor('schools-src');
    const seven = join(src, 'edubasealldata20260101.csv');
    writeFileSync(seven, firstLines(gias, 8), 'latin1');
    const mirror = join(dirFor('schools'), 'mirror');
    await syncDataset('schools', opts(mirror, [seven, MI_REAL]));
    const file = join(mirror, 'schools.duckdb');
    const counts = async () => (await count(file, 'SELECT (SELECT count(*) FROM schools)::INTEGER AS s, (SELECT count(*) FROM inspections)::INTEGER AS i'))[0];
    const miRows = mi.split(/\r?\n/).filter((l) => l.trim() !== '').length - 1;
    expect(await counts()).toEqual({ s: 7, i: miRows });

    const three = join(dirFor('schools-newer'), 'edubasealldata20260301.csv');
    writeFileSync(three, firstLines(gias, 4), 'latin1');
    await expect(syncDataset('schools', opts(mirror, three))).rejects.toThrow('edubasealldata20260301.csv: table register would go from 7 rows to 3 (57.1% fewer)');
    expect(await counts()).toEqual({ s: 7, i: miRows });

    const half = Math.floor(miRows / 2);
    const miCut = join(dirFor('schools-mi'), 'Management_information_-_state-funded_schools_-_latest_inspections_as_at_31_Mar_2026.csv');
    writeFileSync(miCut, firstLines(mi, half + 1));
    await expect(syncDataset('schools', opts(mirror, miCut))).rejects.toThrow(`table inspections would go from ${miRows} rows to ${half}`);
    expect(await counts()).toEqual({ s: 7, i: miRows });
  }, 60_000);
});

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
    Object.fromEntries((await count(join(mirror, 'food_hygiene.duckdb'), 'SELECT source_code AS c, count(*)::INTEGER AS n FROM establishments GROUP BY 1')).map((r) => [r.c, r.n]));

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
    const rejects = await count(join(mirror, 'food_hygiene.duckdb'), 'SELECT file FROM rejects ORDER BY file');
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

describe('the whole-table shrink error', () => {
  it('names the files rejected whole and does not advise --allow-shrink for them; without any, it does', () => {
    const reason = 'the new load has 57 rows, 51.3% fewer than the 117 of the previous load of the same file(s) (more than the 10% allowed)';
    const bad = shrinkAdvice(reason, ['FHRS314en-GB.xml']);
    expect(bad).toBe(`${reason}; 1 file(s) were rejected: FHRS314en-GB.xml: give them whole again (or leave them out): --allow-shrink would delete what they held`);
    expect(bad).not.toContain('run again with --allow-shrink');
    expect(shrinkAdvice(reason, [])).toBe(`${reason}; if the publisher really removed them, run again with --allow-shrink`);
  });
});
