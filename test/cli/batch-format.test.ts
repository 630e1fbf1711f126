/**
 * `--batch` writes one JSON envelope per input line; a `--format csv` or `table` asked for is a usage
 * error (exit 2) before any line is read, rather than ignored (JSON envelopes in a .csv file). Without
 * --format (a terminal's default table) the envelopes still print. On the example domain's calculator
 * (test/support/example-domain/calculate.ts).
 */
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';

const stdin = '{"amount":30}\n';

describe('--batch and --format', () => {
  it.each([
    ['example calculate', ['example', 'calculate', '--batch']],
    ['api POST', ['api', 'POST', '/v1/example/calculate', '--batch']],
  ])('%s: --format csv and table are usage errors; ndjson and the default print envelopes', async (_n, args) => {
    for (const f of ['csv', 'table']) {
      const r = await runCli([...args, '--format', f], { env: isolatedEnv(), stdin });
      expect([f, r.code, r.stdout]).toEqual([f, 2, '']);
      expect(r.stderr).toContain(`--format ${f} does not apply`);
    }
    const nd = await runCli([...args, '--format', 'ndjson'], { env: isolatedEnv(), stdin });
    const tty = await runCli(args, { env: isolatedEnv(), stdin, tty: true });
    for (const r of [nd, tty]) {
      expect(r.code).toBe(0);
      // counts up to 30: ids 1 to 4 (count = id x 7), 7 + 14 + 21 + 28
      expect(JSON.parse(r.stdout.trim()).data.total_count).toBe(70);
    }
  });
});
