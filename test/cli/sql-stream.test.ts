/**
 * `publicdata sql` streams json, ndjson and csv from DuckDB chunk by chunk (2,048 rows), so a result of
 * any size is written with flat memory: checked here on a generated result of 10,000 rows (five chunks)
 * against values computed in the test, plus --max-rows saying on stderr that it cut the result.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, json, runCli } from '../support/cli.js';
import { streamSql } from '../../src/mirror/sql.js';
import { DATASETS } from '../../src/registry.js';

/** The example domain's invented records: a synced dataset for `sql` to attach. */
const PP = join(__dirname, '..', 'fixtures', 'example', 'records-complete.csv');
const env = isolatedEnv({ CI: '1' });
const Q = 'SELECT i, i * 2 AS twice, format(\'r{}\', i) AS label FROM range(10000) t(i) ORDER BY i';
const expected = Array.from({ length: 10_000 }, (_, i) => ({ i, twice: i * 2, label: `r${i}` }));

beforeAll(async () => {
  expect((await runCli(['sync', 'example-records', '--from', PP], { env })).code).toBe(0);
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
    expect(e.meta.attached).toEqual(['example_records']);
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
      env, datasets: DATASETS,
      onRows: async (rows) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        sizes.push(rows.length);
        await new Promise((r) => setImmediate(r));
        inFlight--;
      },
    });
    expect(done).toEqual({ rows: 10_000, truncated: false, rendering: 'rows' });
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(10_000);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2048);
    expect(maxInFlight).toBe(1);
  });
});

describe('DuckDB renders the lines (json and ndjson without --fields)', () => {
  // Every type json-sql.ts renders, NULLs, a repeated and a numeric column name, awkward text.
  const MIXED = `SELECT i, i * 1e15 AS big, i / 7 AS ratio, (i % 3 = 0) AS flag, DATE '2024-01-01' + i::INTEGER AS d,
    TIMESTAMP '2024-01-01 00:00:00' + i * INTERVAL 1 SECOND AS ts, CASE WHEN i % 5 = 0 THEN NULL ELSE 'r"' || i || chr(10) || chr(27) || 'é€😀' END AS s,
    (i * 12345)::HUGEINT * 1000000000 AS huge, i::DECIMAL(18,2) / 4 AS dec, uuid_extract_timestamp IS NULL AS "0", i AS s_again
    FROM range(5000) t(i), (SELECT NULL AS uuid_extract_timestamp) ORDER BY i`;

  /** The JS path's NDJSON of a query: rows from onRows, JSON.stringify each. */
  const jsNdjson = async (q: string) => {
    let out = '';
    await streamSql(q, { datasets: DATASETS, env, onRows: (rows) => void (out += rows.map((r) => `${JSON.stringify(r)}\n`).join('')) });
    return out;
  };

  it('onLines gets the JS path\'s lines, chunk by chunk, and says which path ran', async () => {
    let out = '';
    const sizes: number[] = [];
    const done = await streamSql(MIXED, { datasets: DATASETS, env, onRows: () => expect.fail('rows'), onLines: (l) => void (sizes.push(l.length), (out += l.map((x) => `${x}\n`).join(''))) });
    expect(done).toEqual({ rows: 5000, truncated: false, rendering: 'lines' });
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2048);
    const want = await jsNdjson(MIXED);
    expect(out).toBe(want);
    expect(want.split('\n')[1]).toBe('{"0":true,"i":1,"big":1000000000000000,"ratio":0.14285714285714285,"flag":false,"d":"2024-01-02","ts":"2024-01-01T00:00:01.000Z","s":"r\\"1\\n\\u001bé€😀","huge":12345000000000,"dec":0.25,"s_again":1}');
  });

  it('the CLI writes the same bytes in ndjson and json; --max-rows and --fields still apply', async () => {
    const want = await jsNdjson(MIXED);
    expect((await runCli(['sql', MIXED, '--format', 'ndjson'], { env })).stdout).toBe(want);
    const j = await runCli(['sql', MIXED, '--format', 'json'], { env });
    expect(j.stdout.startsWith(`{"data":[${want.trimEnd().split('\n').join(',')}],"meta":{`)).toBe(true);
    const cut = await runCli(['sql', MIXED, '--format', 'ndjson', '--max-rows', '2100'], { env });
    expect(cut.stdout).toBe(want.split('\n').slice(0, 2100).map((l) => `${l}\n`).join(''));
    expect(cut.stderr).toBe('sql: stopped after --max-rows 2100; the query has more rows\n');
    const f = await runCli(['sql', MIXED, '--format', 'ndjson', '--fields', 'i,d', '--max-rows', '2'], { env });
    expect(f.stdout).toBe('{"i":0,"d":"2024-01-01"}\n{"i":1,"d":"2024-01-02"}\n');
  });

  it('types without an SQL rendering, and statements that are not queries, keep the JS path', async () => {
    const onLines = () => expect.fail('lines');
    for (const q of ['SELECT [1, 2] AS l, 1 AS i', 'SELECT INTERVAL 1 DAY AS i', 'PRAGMA version', 'SELECT 1 AS a;  ']) {
      const done = await streamSql(q, { datasets: DATASETS, env, onRows: () => undefined, ...(q.endsWith(';  ') ? {} : { onLines }) });
      expect(done.rendering, q).toBe('rows');
    }
    const semi = await streamSql('SELECT 1 AS a; ', { datasets: DATASETS, env, onRows: () => expect.fail('rows'), onLines: (l) => void expect(l).toEqual(['{"a":1}']) });
    expect(semi.rendering).toBe('lines');
  });

  it('copyTo: DuckDB writes the same lines itself into a pipe (COPY), and allows no other path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pd-fifo-'));
    const fifo = join(dir, 'out');
    execFileSync('mkfifo', [fifo]);
    const chunks: Buffer[] = [];
    const reading = new Promise<void>((resolve, reject) => {
      createReadStream(fifo).on('data', (b) => chunks.push(b as Buffer)).on('end', resolve).on('error', reject);
    });
    const done = await streamSql(MIXED, { datasets: DATASETS, env, copyTo: fifo, onRows: () => expect.fail('rows'), onLines: () => expect.fail('lines') });
    await reading;
    expect(done).toEqual({ rows: 5000, truncated: false, rendering: 'copy' });
    expect(Buffer.concat(chunks).toString('utf8')).toBe(await jsNdjson(MIXED));
    // the user's SQL still cannot reach any other file
    const other = join(dir, 'x.csv');
    await expect(streamSql(`COPY (SELECT 1) TO '${other}'`, { datasets: DATASETS, env, copyTo: fifo, onRows: () => undefined, onLines: () => undefined })).rejects.toThrow(/^sql is read-only: /);
    expect(existsSync(other)).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });

  it('copyOut: DuckDB copies into a FIFO of its own, relayed to the stream in whole lines, removed afterwards', async () => {
    const writes: string[] = [];
    const out = { write: (b: string | Buffer) => void writes.push(b.toString()) };
    const done = await streamSql(MIXED, { datasets: DATASETS, env, copyOut: out, onRows: () => expect.fail('rows'), onLines: () => expect.fail('lines') });
    expect(done).toEqual({ rows: 5000, truncated: false, rendering: 'copy' });
    expect(writes.length).toBeGreaterThan(1); // ~0.8 MB in 64 KB reads
    for (const w of writes) expect(w.endsWith('\n')).toBe(true); // no multi-byte character split between writes
    expect(writes.join('')).toBe(await jsNdjson(MIXED));
    const tmp = join(env.PUBLICDATA_CACHE_DIR!, 'sql-tmp');
    expect(existsSync(tmp) ? readdirSync(tmp).filter((f) => f.endsWith('.fifo')) : []).toEqual([]);
  });

  it('an error DuckDB raises mid-stream is the error envelope after the rows already written', async () => {
    const q = `SELECT CASE WHEN i = 4500 THEN error('boom at ' || i) ELSE i END AS v FROM range(10000) t(i) ORDER BY i`;
    const r = await runCli(['sql', q, '--format', 'ndjson'], { env });
    expect(r.code).not.toBe(0);
    const last = r.stdout.trimEnd().split('\n').at(-1)!;
    expect(JSON.parse(last).error.message).toContain('boom at 4500');
    expect(r.stderr).toContain('boom at 4500');
  });

  it('an error in the middle of a long COPY: whole lines, then the envelope on a line of its own', async () => {
    // 500,000 rows in, DuckDB has flushed part of its output (not on a line boundary) when it fails
    const q = `SELECT CASE WHEN i = 500000 THEN error('boom') ELSE i END AS x FROM range(1000000) t(i)`;
    const r = await runCli(['sql', q, '--format', 'ndjson'], { env });
    expect(r.code).not.toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(JSON.parse(lines.at(-1)!).error.message).toContain('boom');
    expect(lines.length).toBeGreaterThan(1000);
    // Every line before the envelope is a whole record {"x":N}: checked in one pass (an expect per line cost
    // ~12 s of CPU over ~500,000 lines), and the first bad line is reported if there is one.
    const body = lines.slice(0, -1);
    const bad = body.findIndex((l) => !/^\{"x":\d+\}$/.test(l));
    expect(bad === -1 ? undefined : body[bad]).toBeUndefined();
  });

  it('a user error that mentions a broken pipe is still an error', async () => {
    const r = await runCli(['sql', "SELECT error('Broken pipe in my data') AS x", '--format', 'json'], { env });
    expect(r.code).not.toBe(0);
    expect(json(r).error.message).toContain('Broken pipe in my data');
  });

  it("a statement that is not a SELECT gets no write access to the copy target", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pd-copyto-'));
    const target = join(dir, 'target.ndjson');
    await expect(
      streamSql(`COPY (SELECT 42 AS x) TO '${target}'`, { datasets: DATASETS, env, copyTo: target, onRows: () => undefined, onLines: () => undefined }),
    ).rejects.toThrow(/^sql is read-only: /);
    expect(existsSync(target)).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });

  it('the FIFO and spilled blocks of runs that were killed are removed by the next run, a live run\'s kept', async () => {
    const tmp = join(env.PUBLICDATA_CACHE_DIR!, 'sql-tmp');
    // 4194305 is above Linux's largest pid_max: no such process; process.ppid is alive
    const stale = [join(tmp, '4194305.fifo'), join(tmp, '4194305', 'duckdb_temp_block-0.block')];
    const live = join(tmp, `${process.ppid}.fifo`);
    mkdirSync(join(tmp, '4194305'), { recursive: true });
    for (const f of [...stale, live]) writeFileSync(f, '');
    const r = await runCli(['sql', 'SELECT 1 AS a', '--format', 'ndjson'], { env });
    expect(r.stdout).toBe('{"a":1}\n');
    expect([...stale, join(tmp, '4194305')].map(existsSync)).toEqual([false, false, false]);
    expect(existsSync(live)).toBe(true);
    rmSync(live);
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
