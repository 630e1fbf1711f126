// A node child running an inline ES module (`node --input-type=module -e code`) in the repository,
// for baselines and measured steps that must run in a process of their own. The child prints JSON; the
// last line of its stdout is the result.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * A snippet a child can prepend to report its peak RSS in MB, `__rss()`, and the CPU seconds (user +
 * system, all threads: DuckDB's too) it has used, `__cpu()`: on a shared machine CPU time is a steadier
 * figure than wall time.
 */
export const RSS = `const __rss = () => Math.round(process.resourceUsage().maxRSS / 1024);
const __cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };`;

/** Run `code` in a child (env: added to this process's); its last stdout line parsed as JSON, and the wall time. */
export function runNode(code, { env = {} } = {}) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: repo,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) {
    console.error(r.stdout, r.stderr);
    throw new Error(`child failed (${r.status ?? r.signal})`);
  }
  const lines = r.stdout.trim().split('\n');
  return { result: JSON.parse(lines[lines.length - 1]), ms };
}

/**
 * The bare-DuckDB baseline of a load: in a child, `CREATE TABLE t AS SELECT * FROM <from>` into a new file
 * at `db` with `threads`, CHECKPOINT, count. Returns { s, rows, rss, cpu } (seconds, rows, peak RSS MB, CPU seconds); the
 * file is removed before and after.
 */
export function bareLoad({ db, from, threads }) {
  for (const f of [db, `${db}.wal`]) rmSync(f, { force: true });
  const { result } = runNode(`import { DuckDBInstance } from '@duckdb/node-api';
    ${RSS}
    const t0 = performance.now();
    const db = await DuckDBInstance.create(${JSON.stringify(db)}, { threads: '${threads}' });
    const c = await db.connect();
    await c.run(${JSON.stringify(`CREATE TABLE t AS SELECT * FROM ${from}`)});
    await c.run('CHECKPOINT');
    const n = (await c.runAndReadAll('SELECT count(*) FROM t')).getRows()[0][0];
    c.closeSync(); db.closeSync();
    console.log(JSON.stringify({ s: (performance.now() - t0) / 1000, rows: Number(n), rss: __rss(), cpu: __cpu() }));`);
  rmSync(db, { force: true });
  return result;
}
