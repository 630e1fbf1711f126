/** earnings's tables at 80 columns (issue 37; moved from test/cli/tables-80.test.ts), on its fixture mirror. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { useFixtureMirror } from '../support/route-samples.js';
import { both, checkColumn, COLUMNS, widest, at, type Rec } from '../support/tables-80.js';

const fx = useFixtureMirror('tables-80-earnings-', 'earnings');

describe('the commands issue 37 names, at 80 columns: earnings', () => {
  it('earnings regions: within the width, name and median first, the rest named', async () => {
    const { table, answer } = await both(fx, ['earnings', 'regions', '--basis', 'residence', '--population', 'all']);
    expect(widest(table.stdout), table.stdout).toBeLessThanOrEqual(COLUMNS);
    const recs = answer.data as Array<{ geography: { name: string }; median: number }>;
    expect(recs.length).toBeGreaterThan(1);
    for (const r of recs) {
      const line = table.stdout.split('\n').find((l) => l.startsWith(`${r.geography.name}  `))!;
      expect(line, r.geography.name).toBeDefined();
      expect(line).toContain(`£${r.median.toLocaleString('en-GB')}`);
    }
  });

  it('earnings rank --chart: within the width', async () => {
    const { table, answer } = await both(fx, ['earnings', 'rank', '28000', '--chart']);
    const tty = await runCli(['earnings', 'rank', '28000', '--chart', '--source', 'local'], { env: fx.env(), tty: true, columns: COLUMNS });
    expect(widest(tty.stdout), tty.stdout).toBeLessThanOrEqual(COLUMNS);
    expect(tty.stdout).toContain('◀ this amount');
    expect(tty.stdout).toMatch(/█/);
    expect((answer.data as { amount: number }).amount).toBe(28000);
    expect(widest(table.stdout)).toBeLessThanOrEqual(COLUMNS);
  });
});
