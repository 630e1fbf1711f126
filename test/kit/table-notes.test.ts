/**
 * The table format says what the answer says about itself in words: `meta.warning(s)`, `meta.note` and
 * `meta.caveat` go to stderr under the table (JSON carries them in meta), once: a note the answer's own
 * renderer printed is not repeated. An empty page's footer says `0 records`, not "page 1 of 0".
 * The expected texts are read from the same call's JSON answer. Run on the test-only example domain
 * (its items carry a caveat and a warning; its notes route's renderer prints the note); each domain's
 * own answers are checked in its tests (test/<domain>/output.test.ts).
 */
import '../support/example-domain/index.js';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';

const env = isolatedEnv({ NO_COLOR: '1' });

async function tableAndMeta(args: string[]) {
  const table = await runCli([...args, '--source', 'local', '--format', 'table'], { env, columns: 200 });
  const json = await runCli([...args, '--source', 'local', '--format', 'json'], { env });
  expect([table.code, json.code]).toEqual([0, 0]);
  return { table, meta: JSON.parse(json.stdout).meta as Record<string, unknown> };
}

const count = (s: string, part: string) => s.split(part).length - 1;

describe('table output: the answer\'s words about itself', () => {
  it('a caveat is printed once, on stderr', async () => {
    const { table, meta } = await tableAndMeta(['example', 'items', '--per-page', '3']);
    expect(meta.caveat).toBe('Example data, invented for tests.');
    expect(count(table.stderr, `caveat ${meta.caveat as string}\n`)).toBe(1);
    expect(table.stdout).not.toContain(meta.caveat as string);
  });

  it('a warning is printed as a warning', async () => {
    const { table, meta } = await tableAndMeta(['example', 'items', '--per-page', '3']);
    expect(meta.warning).toBe('Example warning: these items are not real.');
    expect(count(table.stderr, `warning ${meta.warning as string}\n`)).toBe(1);
  });

  it("a note the answer's own renderer prints is not repeated on stderr", async () => {
    const { table, meta } = await tableAndMeta(['example', 'notes']);
    expect(meta.note).toMatch(/^No notes here/);
    expect(count(table.stdout, meta.note as string)).toBe(1);
    expect(table.stderr).not.toContain(meta.note as string);
  });

  it("an empty answer's footer says 0 records, not page 1 of 0", async () => {
    const { table } = await tableAndMeta(['example', 'items', 'no such item anywhere']);
    expect(table.stdout).toMatch(/(^|\n)0 records · source: local/);
    expect(table.stdout).not.toMatch(/page 1 of 0/);
  });
});
