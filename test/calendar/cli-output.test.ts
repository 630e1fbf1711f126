/** calendar's own output case (moved from test/cli/output.test.ts): --fields names the fields there are. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

describe('calendar --fields', () => {
  it('an unknown field is a usage error naming the fields there are (on a terminal: stderr)', async () => {
    const t = await runCli(['calendar', 'regions', '--fields', 'slug,nope'], { tty: true });
    expect(t.code).toBe(2);
    expect(t.stderr).toMatch(/Unknown field 'nope'.*slug, name/);
  });
});
