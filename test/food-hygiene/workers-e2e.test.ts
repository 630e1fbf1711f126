/**
 * The built CLI parses a food-hygiene sync's files in worker threads (dist/cli/food-hygiene-stage-worker.cjs,
 * src/domains/food-hygiene/sync/parse-slots.ts), each into a staging CSV of its own, and loads exactly what the
 * main-thread parse loads: the same table, row for row in its on-disk order, the same rejects. A
 * malformed file parsed in a worker is cut back out of that worker's staging CSV and is a reject naming
 * its authority. (The tests in test/food-hygiene run from the sources, where there is no worker file:
 * they cover the main-thread path.)
 */
import { execa } from 'execa';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, sqlOn, tempDir } from '../support/mirror-helper.js';
import { isolatedEnv } from '../support/cli.js';
import { AUTHORITIES, authoritiesJson, FIXTURE_DIR, fileName, readXml } from './fixture.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const BIN = join(__dirname, '..', '..', 'bin', 'publicdata.cjs');
const dirs: string[] = [];
afterAll(() => cleanup(dirs));

const up = useUpstreamServer('pd-fh-workers-up-');

async function syncWith(input: string | undefined, threads: string): Promise<{ stderr: string; file: string }> {
  const env = isolatedEnv() as Record<string, string>;
  dirs.push(join(env.PUBLICDATA_DATA_DIR!, '..'));
  const args = input ? ['--from', input] : [];
  const upstream = input ? {} : { PUBLICDATA_UPSTREAM_BASE: up.server.url };
  const r = await execa('node', [BIN, 'sync', 'food-hygiene', ...args, '--verbose'], {
    env: { ...env, ...upstream, PATH: process.env.PATH ?? '', NO_COLOR: '1', PUBLICDATA_SYNC_THREADS: threads },
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

  it('downloaded files too: a file that stops mid-way, parsed in a worker, is a reject naming its authority', async () => {
    const base = `${up.server.url}/food-hygiene`;
    up.server.set('/food-hygiene/Authorities', authoritiesJson(base), { contentType: 'application/json' });
    for (const a of AUTHORITIES) up.server.setFile(`/food-hygiene/api/open-data-files/${fileName(a.code)}`, join(FIXTURE_DIR, fileName(a.code)));
    up.server.set('/food-hygiene/api/open-data-files/FHRS626en-GB.xml', readFileSync(join(FIXTURE_DIR, fileName('626')), 'utf8').slice(0, 4000));
    const r = await syncWith(undefined, '2');
    expect(r.stderr).toContain('parsing in 2 worker threads');
    const good = AUTHORITIES.filter((a) => a.code !== '626');
    expect(await sqlOn(r.file, 'SELECT source_code AS code, count(*)::INTEGER AS n FROM establishments GROUP BY 1 ORDER BY 1'))
      .toEqual(good.map((a) => ({ code: a.code, n: readXml(fileName(a.code)).length })).sort((x, y) => x.code.localeCompare(y.code)));
    const rejects = await sqlOn(r.file, 'SELECT file, reason FROM rejects');
    expect(rejects).toHaveLength(1);
    expect(String(rejects[0]!.reason)).toMatch(/^authority 626 \(Hull and Goole Port\): malformed XML/);
  }, 60_000);
});
