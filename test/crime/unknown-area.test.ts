/**
 * crime (moved from test/cli/unknown-area.test.ts).
 * Issue 37: an area that matches nothing answered as a real zero. An unknown area is 404 naming the command
 * that lists the known ones; a force known (data/crime/forces.json) but not loaded answers with null figures
 * and the sync that loads it. Run through the CLI on the fixture mirror (City of London, Surrey and the Met
 * outcomes loaded).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { useFixtureMirror } from '../support/route-samples.js';

const mirror = useFixtureMirror('pd-unknown-area-', 'crime');
const run = async (args: string[]) => {
  const r = await runCli([...args, '--source', 'local', '--format', 'json'], { env: mirror.env() });
  return { code: r.code, body: JSON.parse(r.stdout) };
};

describe('an area that matches nothing is not a real zero', () => {
  it('crime stats --force kent (published, not loaded): null figures, and the note names the sync that loads it', async () => {
    const r = await run(['crime', 'stats', '--force', 'kent']);
    expect(r.code).toBe(0);
    expect(r.body.data).toMatchObject({ area: { force: 'kent' }, total: null, by_category: null, by_month: null, by_outcome: null });
    expect(r.body.meta.note).toContain("'publicdata sync crime --forces kent' loads it");
    expect(r.body.meta.note).not.toContain('count of 0 crimes.');
  });

  it('crime stats --force nowhere (no such force): 404 naming the command that lists the forces', async () => {
    const r = await run(['crime', 'stats', '--force', 'nowhere']);
    expect([r.code, r.body.error.code]).toEqual([1, 'not_found']);
    expect(r.body.error.message).toContain("No police force 'nowhere': 'publicdata crime forces' lists the forces loaded");
  });
});
