// A node child running an inline ES module (`node --input-type=module -e code`) in the repository,
// for baselines and measured steps that must run in a process of their own. The child prints JSON; the
// last line of its stdout is the result.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A snippet a child can prepend to report its peak RSS in MB: `__rss()`. */
export const RSS = `const __rss = () => Math.round(process.resourceUsage().maxRSS / 1024);`;

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
