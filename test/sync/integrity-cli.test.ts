/**
 * Issue 21 through the CLI: a damaged mirror file answers the error envelope naming the file (exit 1, no
 * internal_error), `sync` rebuilds it and its summary says so; `--replace` needs `--from`; `mirror status`
 * shows the download cache size.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeAll } from '../../src/mirror/db.js';
import { sqlOn } from '../support/mirror-helper.js';
import { isolatedEnv, json, runCli } from '../support/cli.js';
import { readRecords } from '../support/example-domain/records-gen.js';

const COMPLETE = join(import.meta.dirname, '..', 'fixtures', 'example', 'records-complete.csv');

describe('sync integrity through the CLI', () => {
  it('a damaged example_records.duckdb: dataset_damaged envelope naming the file, exit 1; sync rebuilds it and says so', async () => {
    const env = isolatedEnv({ CI: '1' });
    expect((await runCli(['sync', 'example-records', '--from', COMPLETE], { env })).code).toBe(0);
    const file = join(env.PUBLICDATA_DATA_DIR!, 'mirror', 'example_records.duckdb');
    const [seg] = await sqlOn(file, `SELECT block_id::BIGINT AS b, block_offset::BIGINT AS off FROM pragma_storage_info('records') WHERE column_name = 'colour' AND block_id >= 0 ORDER BY block_id LIMIT 1`);
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(512, 0x41), 0, 512, 3 * 4096 + Number(seg!.b) * 262144 + 8 + Number(seg!.off));
    closeSync(fd);
    await closeAll();
    const colour = readRecords(readFileSync(COMPLETE, 'utf8'))[0]!.colour;
    const q = await runCli(['example', 'records', '--colour', colour, '--format', 'json'], { env });
    expect(q.code).toBe(1);
    const err = JSON.parse(q.stdout).error;
    expect(q.stderr).toContain(`error dataset_damaged: The mirror file ${file}`);
    expect(err.code).toBe('dataset_damaged');
    expect(err.message).toContain(file);
    expect(q.stderr).not.toMatch(/internal_error|this is a bug/);
    await closeAll();
    const s = await runCli(['sync', 'example-records', '--from', COMPLETE, '--format', 'json'], { env });
    expect(s.code).toBe(0);
    expect(json(s).data[0]).toMatchObject({ dataset: 'example-records', status: 'synced', action: 'rebuilt', rows_total: readRecords(readFileSync(COMPLETE, 'utf8')).length });
    expect(json(s).data[0].note).toMatch(/damaged: rebuilt with a full load/);
    const ok = await runCli(['example', 'records', '--colour', colour, '--format', 'json'], { env });
    expect(ok.code).toBe(0);
    await closeAll();
  });

  it('--replace without --from is a usage error; mirror status has cache_bytes', async () => {
    const env = isolatedEnv({ CI: '1' });
    const r = await runCli(['sync', 'example-records', '--replace'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--replace goes with --from/);
    const st = json(await runCli(['mirror', 'status', 'example-records', '--format', 'json'], { env }));
    expect(st.data[0]).toMatchObject({ dataset: 'example-records', cache_bytes: 0 });
  });
});
