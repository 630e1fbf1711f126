/** energy's tables at 80 columns (issue 37; moved from test/cli/tables-80.test.ts), on its fixture mirror. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { useFixtureMirror } from '../support/route-samples.js';
import { both, checkColumn, COLUMNS, widest, at, type Rec } from '../support/tables-80.js';

const fx = useFixtureMirror('tables-80-energy-', 'energy');

describe('the commands issue 37 names, at 80 columns: energy', () => {
  it('energy rates: each row labelled by its fuel, meter and payment method', async () => {
    const { table, answer } = await both(fx, ['energy', 'rates']);
    const recs = answer.data as Rec[];
    expect(new Set(recs.map((r) => r.fuel)).size).toBeGreaterThan(1);
    expect(widest(table.stdout)).toBeLessThanOrEqual(COLUMNS);
    for (const c of ['fuel', 'payment_method', 'meter', 'unit_rate', 'standing_charge']) checkColumn(table.stdout, recs, c);
  });

  it('energy periods: the typical bill shown', async () => {
    const { table, answer } = await both(fx, ['energy', 'periods', '--per-page', '5']);
    expect(widest(table.stdout)).toBeLessThanOrEqual(COLUMNS);
    checkColumn(table.stdout, answer.data as Rec[], 'typical_annual_bill.direct_debit');
    // the note under it wraps at word boundaries: its words, in order, none broken
    const note = (answer as { meta?: { note?: string } }).meta?.note;
    if (note) {
      expect(widest(table.stderr)).toBeLessThanOrEqual(COLUMNS);
      expect(table.stderr.replace(/^note /, '').replace(/\n +/g, ' ').trim()).toBe(note);
    }
  });
});

describe('counts in words', () => {
  it('a one-record answer says "1 record", not "1 records"', async () => {
    const { table, answer } = await both(fx, ['api', 'GET', '/v1/energy/price-cap/rates?period=2025-10&fuel=gas']);
    expect(answer.data as unknown[]).toHaveLength(1);
    expect(table.stdout).toMatch(/(^|\n)1 record · source: local/);
    const two = await both(fx, ['api', 'GET', '/v1/energy/price-cap/rates?period=2025-10']);
    expect((two.answer.data as unknown[]).length).toBe(2);
    expect(two.table.stdout).toMatch(/(^|\n)2 records · source: local/);
  });
});
