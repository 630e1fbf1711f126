/**
 * The calendar section of the area profile (src/domains/calendar/area-section.ts), built in process
 * (test/support/area-section.ts) on no mirror at all: the shipped bank holidays (data/calendar), read here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSection, place } from '../support/area-section.js';
import { FIXED_NOW } from '../support/handler-context.js';

describe('area section: calendar', () => {
  it("the next bank holiday of the place's division after the fixed date; no_coverage without a division", async () => {
    const events = JSON.parse(readFileSync(join(__dirname, '..', '..', 'data', 'calendar', 'bank-holidays.json'), 'utf8'))['northern-ireland'].events as Array<{ date: string; title: string }>;
    const next = events.filter((e) => e.date >= FIXED_NOW.toISOString().slice(0, 10)).sort((a, b) => a.date.localeCompare(b.date))[0]!;
    const { answer, source, lines } = await buildSection('calendar', place({ country: { division: 'northern-ireland' } }), '/nonexistent');
    expect(answer).toEqual({ status: 'ok', division: 'northern-ireland', next_bank_holiday: { date: next.date, title: next.title } });
    expect(source).toEqual(['/v1/calendar/bank-holidays/next?region=northern_ireland']);
    expect(await lines()).toEqual([`  next bank holiday  ${next.date} ${next.title}`]);
    // the Channel Islands and the Isle of Man: GOV.UK publishes none
    expect((await buildSection('calendar', place({ country: { division: null } }), '/nonexistent')).answer.status).toBe('no_coverage');
  });
});
