/**
 * food-hygiene (moved from test/cli/unknown-area.test.ts).
 * Issue 37: an area that matches nothing answered as a real zero. An unknown authority is 404 naming the
 * command that lists those loaded. Run through the CLI on the fixture mirror (four FSA authorities: 314,
 * 626, 648, 760).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { useFixtureMirror } from '../support/route-samples.js';

const mirror = useFixtureMirror('pd-unknown-area-', 'food-hygiene');
const run = async (args: string[]) => {
  const r = await runCli([...args, '--source', 'local', '--format', 'json'], { env: mirror.env() });
  return { code: r.code, body: JSON.parse(r.stdout) };
};

describe('an area that matches nothing is not a real zero', () => {
  it('food-hygiene stats --authority Nowhere: 404 naming the command that lists the authorities', async () => {
    const r = await run(['food-hygiene', 'stats', '--authority', 'Nowhere']);
    expect([r.code, r.body.error.code]).toEqual([1, 'not_found']);
    expect(r.body.error.message).toContain("No local authority loaded matches 'Nowhere': 'publicdata food-hygiene authorities' lists those loaded");
    const list = await run(['food-hygiene', 'search', '--authority', 'Nowhere']);
    expect([list.code, list.body.error.code]).toEqual([1, 'not_found']);
    // a loaded one still answers
    const ok = await run(['food-hygiene', 'stats', '--authority', '314']);
    expect(ok.code).toBe(0);
    expect(ok.body.data.establishment_count).toBeGreaterThan(0);
  });
});
