/**
 * The built CLI parses a food-hygiene sync's files in worker threads (dist/cli/food-hygiene-worker.cjs,
 * src/domains/food-hygiene/parse-slots.ts), each into a staging CSV of its own, and loads exactly what the
 * main-thread parse loads: the same table, row for row in its on-disk order, the same rejects. A
 * malformed file parsed in a worker is cut back out of that worker's staging CSV and is a reject naming
 * its authority. (The tests in test/food-hygiene run from the sources, where there is no worker file:
 * they cover the main-thread path.)
 */
import { execa } from 'execa';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, sqlOn, tempDir } from '../property/mirror-helper.js';
import { isolatedEnv } from '../support/cli.js';
import { AUTHORITIES, FIXTURE_DIR, fileName, readXml } from '../food-hygiene/fixture.js';

const BIN = join(__dirname, '..', '..', 'bin', 'publicdata.cjs');
const dirs: string[] = [];
afterAll(() => cleanup(dirs));

async function syncWith(input: string, threads: string): Promise<{ stderr: string; file: string }> {
  const env = isolatedEnv() as Record<string, string>;
  dirs.push(join(env.PUBLICDATA_DATA_DIR!, '..'));
  const r = await execa('node', [BIN, 'sync', 'food-hygiene', '--from', input, '--verbose'], {
    env: { ...env, PATH: process.env.PATH ?? '', NO_COLOR: '1', PUBLICDATA_SYNC_THREADS: threads },
    extendEnv: false,
    reject: false,
  });
  expect(r.exitCode, r.stderr).toBe(0);
  return { stderr: r.stderr, file: join(env.PUBLICDATA_DATA_DIR!, 'mirror', 'food_hygiene.duckdb') };
}

describe('sync food-hygiene with the built CLI', () => {
  it('parses in worker threads and loads the same table and rejects as the main-thread parse', async () => {
    const input = tempDir('pd-fh-input-');
    dirs.push(input);
    for (const a of AUTHORITIES) copyFileSync(join(FIXTURE_DIR, fileName(a.code)), join(input, fileName(a.code)));
    // a fifth authority whose file stops mid-establishment
    writeFileSync(join(input, fileName('999')), readFileSync(join(FIXTURE_DIR, fileName('314')), 'utf8').slice(0, 20_000));
    const workers = await syncWith(input, '2');
    expect(workers.stderr).toContain('parsing in 2 worker threads');
    const main = await syncWith(input, '1');
    expect(main.stderr).toContain('parsing on the main thread');

    // every establishment of the four good files, per authority, as the XML says
    const perCode = await sqlOn(workers.file, 'SELECT source_code AS code, count(*)::INTEGER AS n FROM establishments GROUP BY 1 ORDER BY 1');
    expect(perCode).toEqual(AUTHORITIES.map((a) => ({ code: a.code, n: readXml(fileName(a.code)).length })).sort((x, y) => x.code.localeCompare(y.code)));
    const rejects = await sqlOn(workers.file, 'SELECT file, reason FROM rejects');
    expect(rejects).toHaveLength(1);
    expect(rejects[0]!.file).toBe(fileName('999'));
    expect(String(rejects[0]!.reason)).toMatch(/^authority 999: malformed XML/);

    // the same rows in the same on-disk order, the same rejects and authorities
    for (const sql of [
      'SELECT * EXCLUDE (fhrs_id), fhrs_id::VARCHAR AS id FROM establishments',
      'SELECT file, line, raw, reason FROM rejects ORDER BY ALL',
      'SELECT code, establishments, item_count FROM authorities ORDER BY code',
    ]) {
      expect(JSON.stringify(await sqlOn(workers.file, sql))).toBe(JSON.stringify(await sqlOn(main.file, sql)));
    }
  }, 60_000);
});
