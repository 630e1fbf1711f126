/**
 * Schools answers through the CLI's output (from test/cli/table-notes and near-label, whose shared form is
 * now in test/kit/ on the test-only example domain).
 */
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { useFixtureMirror } from '../support/route-samples.js';

const mirror = useFixtureMirror('pd-schools-output-', 'schools');

describe('schools output', () => {
  it("table: Ofsted's display warning is printed as a warning", async () => {
    const args = ['schools', 'search', '--per-page', '3', '--source', 'local'];
    const table = await runCli([...args, '--format', 'table'], { env: mirror.env(), columns: 200 });
    const json = await runCli([...args, '--format', 'json'], { env: mirror.env() });
    expect([table.code, json.code]).toEqual([0, 0]);
    const meta = JSON.parse(json.stdout).meta as Record<string, unknown>;
    expect(typeof meta.warning).toBe('string');
    // wrapped at word boundaries to the width, later lines indented (issue 37)
    expect(table.stderr.replace(/\n  /g, ' ').split(`warning ${meta.warning as string}\n`).length - 1).toBe(1);
    expect(Math.max(...table.stderr.split('\n').map((l) => l.length))).toBeLessThanOrEqual(200);
  });

  it('--near 40,-1.5: invalid_parameter naming --near (exit 2), before data access', async () => {
    const r = await runCli(['schools', '--near', '40,-1.5', '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toEqual(expect.objectContaining({ code: 'invalid_parameter', message: 'Invalid option --near: must be at least 49.' }));
  });

  it('stats --authority " ": invalid_parameter "empty" (exit 2), before data access', async () => {
    const r = await runCli(['schools', 'stats', '--authority', ' ', '--source', 'local', '--format', 'json'], { env: isolatedEnv() });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toEqual(expect.objectContaining({ code: 'invalid_parameter', message: 'Invalid option --authority: empty; give a value.' }));
  });
});
