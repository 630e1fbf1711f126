/**
 * `publicdata sql` streams json, ndjson and csv from DuckDB chunk by chunk (2,048 rows), so a result of
 * any size is written with flat memory: checked here on a generated result of 10,000 rows (five chunks)
 * against values computed in the test, plus --max-rows saying on stderr that it cut the result.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, json, runCli } from '../support/cli.js';
import { streamSql } from '../../src/mirror/sql.js';

const PP = join(__dirname, '..', 'fixtures', 'upstream', 'land-registry-ppd', 'pp-complete.csv');
const env = isolatedEnv({ CI: '1' });
const Q = 'SELECT i, i * 2 AS twice, format(\'r{}\', i) AS label FROM range(10000) t(i) ORDER BY i';
const expected = Array.from({ length: 10_000 }, (_, i) => ({ i, twice: i * 2, label: `r${i}` }));

beforeAll(async () => {
  expect((await runCli(['sync', 'price-paid', '--from', PP], { env })).code).toBe(0);
}, 120_000);

describe('sql streams its result', () => {
  it('ndjson: one line per row, every row, in order', async () => {
    const r = await runCli(['sql', Q, '--format', 'ndjson'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual(expected);
  });

  it('json: one envelope with every row and the columns in meta', async () => {
    const r = await runCli(['sql', Q, '--format', 'json'], { env });
    const e = json(r);
    expect(e.data).toEqual(expected);
    expect(e.meta.columns).toEqual([{ name: 'i', type: 'BIGINT' }, { name: 'twice', type: 'BIGINT' }, { name: 'label', type: 'VARCHAR' }]);
    expect(e.meta.attached).toEqual(['price_paid']);
  });

  it('csv: the header once, then every row', async () => {
    const r = await runCli(['sql', Q, '--format', 'csv'], { env });
    const lines = r.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe('i,twice,label');
    expect(lines.slice(1)).toEqual(expected.map((x) => `${x.i},${x.twice},${x.label}`));
  });

  it('an empty result is still a valid answer in each format', async () => {
    const q = 'SELECT 1 AS a WHERE false';
    expect(json(await runCli(['sql', q, '--format', 'json'], { env })).data).toEqual([]);
    expect((await runCli(['sql', q, '--format', 'ndjson'], { env })).stdout).toBe('');
  });

  it('--max-rows stops DuckDB early and says so on stderr', async () => {
    const r = await runCli(['sql', Q, '--format', 'ndjson', '--max-rows', '2500'], { env });
    expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual(expected.slice(0, 2500));
    expect(r.stderr).toBe('sql: stopped after --max-rows 2500; the query has more rows\n');
    const all = await runCli(['sql', 'SELECT 1 AS a', '--format', 'ndjson', '--max-rows', '5'], { env });
    expect(all.stderr).toBe('');
  });

  it('hands DuckDB chunks to the writer one at a time, waiting for each', async () => {
    const sizes: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const done = await streamSql(Q, {
      env,
      onRows: async (rows) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        sizes.push(rows.length);
        await new Promise((r) => setImmediate(r));
        inFlight--;
      },
    });
    expect(done).toEqual({ rows: 10_000, truncated: false });
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(10_000);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2048);
    expect(maxInFlight).toBe(1);
  });
});

describe('sql holds DuckDB to a bounded memory', () => {
  // DuckDB caches every block a scan reads, up to memory_limit (80% of RAM by default): a full export of
  // the 30M-row price-paid table reached 1.5 GB of RSS. `sql` sets 512 MB (PUBLICDATA_SQL_MEMORY overrides).
  // DuckDB reports the limit in MiB: 512 MB = 512e6 / 2^20 = 488.28 MiB; 64 MB = 61.04 MiB.
  const setting = async (e: Record<string, string | undefined>) =>
    JSON.parse((await runCli(['sql', "SELECT current_setting('memory_limit') AS m", '--format', 'ndjson'], { env: e })).stdout).m;

  it('512 MB by default, PUBLICDATA_SQL_MEMORY when set', async () => {
    expect(await setting(env)).toBe('488.2 MiB');
    expect(await setting({ ...env, PUBLICDATA_SQL_MEMORY: '64MB' })).toBe('61.0 MiB');
  });

  it('a malformed PUBLICDATA_SQL_MEMORY is a usage error (exit 2), before any query', async () => {
    const r = await runCli(['sql', 'SELECT 1 AS a', '--format', 'json'], { env: { ...env, PUBLICDATA_SQL_MEMORY: 'lots' } });
    expect(r.code).toBe(2);
    expect(json(r).error.code).toBe('usage_error');
    expect(json(r).error.message).toContain('PUBLICDATA_SQL_MEMORY');
  });
});
