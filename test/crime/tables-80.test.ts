/** crime's tables at 80 columns (issue 37; moved from test/cli/tables-80.test.ts), on its fixture mirror. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { useFixtureMirror } from '../support/route-samples.js';
import { both, checkColumn, COLUMNS, widest, at, type Rec } from '../support/tables-80.js';

const fx = useFixtureMirror('tables-80-crime-', 'crime');

describe('the commands issue 37 names, at 80 columns: crime', () => {
  it('crime street: the 64-character id shortened (said under the table), month and category whole', async () => {
    const { table, answer } = await both(fx, ['crime', 'street', '--force', 'city-of-london', '--month', '2025-05', '--per-page', '5']);
    const recs = answer.data as Rec[];
    expect(recs.some((r) => String(r.crime_id ?? '').length === 64)).toBe(true);
    expect(widest(table.stdout)).toBeLessThanOrEqual(COLUMNS);
    for (const c of ['month', 'category', 'crime_id']) checkColumn(table.stdout, recs, c);
    expect(table.stdout).not.toMatch(/│ 20… │/);
    expect(table.stdout).toContain('crime_id shortened (--wide or --format json for the full value)');
    // --wide: the whole id
    const wide = await runCli(['crime', 'street', '--force', 'city-of-london', '--month', '2025-05', '--per-page', '5', '--wide', '--source', 'local'], { env: fx.env(), tty: true, columns: COLUMNS });
    expect(wide.stdout).toContain(String(recs.find((r) => r.crime_id)!.crime_id));
    expect(widest(wide.stdout)).toBeLessThanOrEqual(COLUMNS);
  });
});
