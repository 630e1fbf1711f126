/**
 * The table format says what the answer says about itself in words: `meta.warning(s)`, `meta.note` and
 * `meta.caveat` go to stderr under the table (JSON carries them in meta), once: a note the answer's own
 * renderer printed is not repeated. An empty page's footer says `0 records`, not "page 1 of 0".
 * The expected texts are read from the same call's JSON answer.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { useFixtureMirror } from '../support/route-samples.js';

const mirror = useFixtureMirror('pd-table-notes-');
const env = mirror.env;

async function tableAndMeta(args: string[]) {
  const table = await runCli([...args, '--source', 'local', '--format', 'table'], { env: env(), columns: 200 });
  const json = await runCli([...args, '--source', 'local', '--format', 'json'], { env: env() });
  expect([table.code, json.code]).toEqual([0, 0]);
  return { table, meta: JSON.parse(json.stdout).meta as Record<string, unknown> };
}

const count = (s: string, part: string) => s.split(part).length - 1;

describe('table output: the answer\'s words about itself', () => {
  it('food hygiene: the caveat every answer carries is printed once, on stderr', async () => {
    const { table, meta } = await tableAndMeta(['food-hygiene', 'search', '--per-page', '3']);
    expect(typeof meta.caveat).toBe('string');
    expect(count(table.stderr, `caveat ${meta.caveat as string}\n`)).toBe(1);
    expect(table.stdout).not.toContain(meta.caveat as string);
  });

  it("schools: Ofsted's display warning is printed as a warning", async () => {
    const { table, meta } = await tableAndMeta(['schools', 'search', '--per-page', '3']);
    expect(typeof meta.warning).toBe('string');
    expect(count(table.stderr, `warning ${meta.warning as string}\n`)).toBe(1);
  });

  it("a note the answer's own renderer prints (earnings) is not repeated on stderr", async () => {
    // the fixture mirror holds Table 8 only: the industries answer is empty with a note saying why
    const { table, meta } = await tableAndMeta(['earnings', 'industries']);
    expect(meta.note).toMatch(/Table 4/);
    expect(count(table.stdout, meta.note as string)).toBe(1);
    expect(table.stderr).not.toContain(meta.note as string);
  });

  it("an empty answer's footer says 0 records, not page 1 of 0", async () => {
    const { table } = await tableAndMeta(['food-hygiene', 'search', 'no such business anywhere']);
    expect(table.stdout).toMatch(/(^|\n)0 records · source: local/);
    expect(table.stdout).not.toMatch(/page 1 of 0/);
  });
});
