/** schools's tables at 80 columns (issue 37; moved from test/cli/tables-80.test.ts), on its fixture mirror. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { useFixtureMirror } from '../support/route-samples.js';
import { both, checkColumn, COLUMNS, widest, at, type Rec } from '../support/tables-80.js';

const fx = useFixtureMirror('tables-80-schools-', 'schools');

describe('the commands issue 37 names, at 80 columns: schools', () => {
  it('schools show 107848 (the README example) fits, every value there', async () => {
    const { table, answer } = await both(fx, ['schools', 'show', '107848']);
    expect(widest(table.stdout), table.stdout).toBeLessThanOrEqual(COLUMNS);
    const d = answer.data as Rec;
    for (const k of ['name', 'postcode'] as const) expect(table.stdout).toContain(String(d[k]));
    expect(table.stdout).toContain(String(at(d, 'latest_inspection.start_date')));
  });

  it('schools list: name, inspection date and outcome shown', async () => {
    const { table, answer } = await both(fx, ['schools', '--authority', 'Leeds', '--per-page', '10']);
    const recs = answer.data as Rec[];
    expect(recs.filter((r) => at(r, 'latest_inspection.start_date')).length).toBeGreaterThan(0);
    expect(widest(table.stdout)).toBeLessThanOrEqual(COLUMNS);
    for (const c of ['name', 'latest_inspection.start_date', 'latest_inspection.overall_effectiveness']) checkColumn(table.stdout, recs, c);
  });
});
