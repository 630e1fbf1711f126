/**
 * Encodings and layouts the sync must take: the real MI rows re-encoded with a UTF-8 BOM and CRLF line ends,
 * and in Windows-1252 with a name holding curly quotes; a bad row (no integer URN) goes to `rejects`; a file
 * named anyhow is recognised by its header.
 */
import { SCHOOLS_INFO } from '../../src/domains/schools/datasets.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeAll, openDataset, query } from '../../src/mirror/db.js';
import { syncDataset } from '../../src/sync-runner.js';
import { cleanup, tempDir } from '../support/mirror-helper.js';
import { encode1252, generatedRegister, headerOf } from './schools-gen.mjs';
import { GIAS_GENERATED, GIAS_REAL, MI_REAL, miReal } from './fixture.js';

const dirs: string[] = [];
afterAll(() => cleanup(dirs));
const mi = miReal();
const text = readFileSync(MI_REAL, 'utf8');

async function syncWith(miBytes: Buffer, name: string): Promise<string> {
  const d = tempDir('pd-schools-fmt-');
  dirs.push(d);
  const f = join(d, name);
  writeFileSync(f, miBytes);
  await syncDataset('schools', { mirrorDir: join(d, 'mirror'), cacheDir: join(d, 'cache'), env: {}, from: [GIAS_GENERATED, f] } as never);
  await closeAll();
  return join(d, 'mirror');
}

describe('management-information encodings', () => {
  it('UTF-8 with a BOM and CRLF line ends: every row, the same values', async () => {
    const mirror = await syncWith(Buffer.from(`\uFEFF${text.replace(/\n/g, '\r\n')}`, 'utf8'), 'mi-bom-crlf.csv');
    const conn = await openDataset(SCHOOLS_INFO, mirror);
    const rows = await query<{ urn: number; web_link: string }>(conn, 'SELECT urn, web_link FROM inspections ORDER BY urn');
    expect(rows.map((r) => r.urn)).toEqual(mi.map((m) => Number(m.URN)).sort((a, b) => a - b));
    expect(rows[0]!.web_link).toBe(mi.find((m) => Number(m.URN) === rows[0]!.urn)!['Web Link (opens in new window)']);
  });

  it('Windows-1252 with curly quotes in a name', async () => {
    const lines = text.split('\n');
    lines[1] = lines[1]!.replace('Guiseley Primary School', 'Guiseley ‘St Oswald’s’ Primary School');
    const mirror = await syncWith(encode1252(lines.join('\n')), 'anything.csv');
    const conn = await openDataset(SCHOOLS_INFO, mirror);
    expect((await query(conn, 'SELECT mi_school_name FROM inspections WHERE urn = 107809'))[0]).toEqual({ mi_school_name: 'Guiseley ‘St Oswald’s’ Primary School' });
    expect((await query(conn, 'SELECT count(*) AS n FROM inspections'))[0]).toEqual({ n: mi.length });
    expect((await query(conn, "SELECT encoding FROM sources WHERE source = 'mi'"))[0]).toEqual({ encoding: 'windows-1252' });
  });

  it('a row without an integer URN is a reject: 1 of 81 rows is over the 1% threshold, so the sync fails', async () => {
    const lines = text.split('\n');
    lines[2] = lines[2]!.replace(/^([^,]*),107810,/, '$1,10781O,');
    expect(lines[2]).toContain(',10781O,');
    const err = await syncWith(Buffer.from(lines.join('\n')), 'bad-urn.csv').catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/1 of 81 rows rejected/);
  });

  it('a GIAS row without an integer URN (1 in 201, under the threshold) is kept in rejects with its line and text', async () => {
    const d = tempDir('pd-schools-rej-');
    dirs.push(d);
    const header = headerOf(readFileSync(GIAS_REAL, 'latin1'));
    const lines = generatedRegister(header, 201, 7).split('\r\n');
    lines[101] = lines[101]!.replace(/^100101,/, 'URN-X,');
    expect(lines[101]!.startsWith('URN-X,')).toBe(true);
    const gias = join(d, 'register.csv');
    writeFileSync(gias, encode1252(lines.join('\r\n')));
    const r = await syncDataset('schools', { mirrorDir: join(d, 'mirror'), cacheDir: join(d, 'cache'), env: {}, from: [gias, MI_REAL] } as never);
    expect([r.status, r.rows_rejected]).toEqual(['synced', 1]);
    await closeAll();
    const conn = await openDataset(SCHOOLS_INFO, join(d, 'mirror'));
    const rejects = await query<{ line: number; raw: string }>(conn, 'SELECT line, raw FROM rejects');
    expect(rejects.map((x) => x.line)).toEqual([102]);
    expect(rejects[0]!.raw.startsWith('URN-X,')).toBe(true);
    expect((await query(conn, 'SELECT count(*) AS n FROM schools'))[0]).toEqual({ n: 200 });
  });
});
