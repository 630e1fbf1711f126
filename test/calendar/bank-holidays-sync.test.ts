/** `sync bank-holidays` through the real framework; the calendar then prefers the synced copy to the snapshot. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getRoute } from '../support/route.js';
import { syncDataset } from '../../src/sync-runner.js';
import { ctxFor, fixturesOf, sqlOn } from '../support/mirror-helper.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const FIXTURES = fixturesOf('calendar');

const FIXTURE = join(FIXTURES, 'bank-holidays.json');
const up = useUpstreamServer('pd-bh-sync-');

describe('sync bank-holidays', () => {
  it('loads GOV.UK JSON and the calendar answers from it', async () => {
    // a newer publication: the fixture plus 2028 New Year's Day in every division, compact as GOV.UK serves it
    const doc = JSON.parse(readFileSync(FIXTURE, 'utf8'));
    for (const k of Object.keys(doc)) doc[k].events.push({ title: 'New Year’s Day', date: '2028-01-03', notes: 'Substitute day', bunting: true });
    up.server.set('/bank-holidays/bank-holidays.json', JSON.stringify(doc), { contentType: 'application/json' });
    const o = up.syncOptions('2027-09-01T08:00:00Z');
    const total = Object.values(doc).reduce((s: number, v: any) => s + v.events.length, 0);
    const r = await syncDataset('bank-holidays', o);
    expect(r).toMatchObject({ status: 'synced', rows_loaded: total, rows_total: total });
    const notes = await sqlOn(join(o.mirrorDir, 'bank_holidays.duckdb'), "SELECT count(*)::INTEGER AS n FROM bank_holidays WHERE notes = ''");
    expect(notes[0]!.n).toBe(0);

    const ctx = ctxFor(o.mirrorDir, '2027-12-29T12:00:00Z');
    const next = (await getRoute('/v1/calendar/bank-holidays/next', { region: 'scotland' }, ctx)).envelope as any;
    expect(next.data.bank_holidays).toEqual([
      { date: '2028-01-03', title: 'New Year’s Day', region: 'scotland', notes: 'Substitute day', bunting: true, days_until: 5 },
    ]);
    expect(next.meta.as_of).toBe('2027-09-01'); // the day of the sync
    const list = (await getRoute('/v1/calendar/bank-holidays/2028', {}, ctx)).envelope as any;
    expect(list.data.bank_holidays.map((h: any) => h.region)).toEqual(['england_and_wales', 'scotland', 'northern_ireland']);

    // a file missing a division is refused; the synced copy stays
    delete doc.scotland;
    up.server.set('/bank-holidays/bank-holidays.json', JSON.stringify(doc), { contentType: 'application/json' });
    await expect(syncDataset('bank-holidays', o)).rejects.toThrow(/scotland/);
    const still = (await getRoute('/v1/calendar/bank-holidays/2028', {}, ctx)).envelope as any;
    expect(still.data.bank_holidays).toHaveLength(3);
  });
});
