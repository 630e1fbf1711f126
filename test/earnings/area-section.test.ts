/**
 * The earnings section of the area profile (src/domains/earnings/area-section.ts), built in process on the
 * earnings fixture mirror alone (test/support/area-section.ts; the take-home comes from the tax calculator
 * route, shipped data): the full-time median annual gross pay of Leeds, Yorkshire and The Humber and
 * England read here from the real Table 8.7a 2020 with SheetJS (test/earnings/helpers.ts), and the
 * take-home at Leeds's median worked out by hand.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSection, place } from '../support/area-section.js';
import { useFixtureMirror } from '../support/route-samples.js';
import { realPoints } from './helpers.js';

const fx = useFixtureMirror('pd-earnings-area-', 'earnings');
const medianOf = (code: string) => realPoints('Full-Time', code).find((p) => p.label === 'median')!.cell;
const PC = { local_authority: { code: 'E08000035', name: 'Leeds' }, region: { code: 'E12000003', name: 'Yorkshire and The Humber' }, country: { code: 'E92000001', name: 'England' } };

describe('area section: earnings', () => {
  it("the full-time medians of the place's local authority, region and country, and the take-home at the local one", async () => {
    const { answer: s, source } = await buildSection('earnings', place({ pc: PC, country: { tax_region: 'england_wales_ni' } }), join(fx.dir(), 'mirror'));
    // Table 8.7a 2020, Full-Time sheet, column D: Leeds (row 91) 30,249; Yorkshire and The Humber (row 68) 28,810; England (row 9) 31,780
    expect([medianOf('E08000035'), medianOf('E12000003'), medianOf('E92000001')]).toEqual([30249, 28810, 31780]);
    expect(s.status).toBe('ok');
    expect((s.local_authority as any)).toMatchObject({ code: 'E08000035', year: 2020, median: 30249 });
    expect((s.region as any)).toMatchObject({ code: 'E12000003', year: 2020, median: 28810 });
    expect((s.country as any)).toMatchObject({ code: 'E92000001', year: 2020, median: 31780 });
    expect(s.suppressed).toEqual([]);
    // 2026-27, England: income tax 20% of 30,249 - 12,570 = 17,679 -> 3,535.80; employee NI 8% of 17,679 -> 1,414.32;
    // net 30,249 - 3,535.80 - 1,414.32 = 25,298.88
    expect(s.take_home_at_median).toEqual({ gross: 30249, net: 25298.88, tax_year: '2026-27', of: 'local_authority' });
    expect(source.at(-1)).toBe('POST /v1/tax/take-home/calculate {"gross_income":30249,"region":"england_wales_ni"}');
  });

  it('no_coverage where no area of the place is loaded; not_synced without the data', async () => {
    const far = { local_authority: { code: 'E06099999', name: null }, region: null, country: null };
    expect((await buildSection('earnings', place({ pc: far }), join(fx.dir(), 'mirror'))).answer.status).toBe('no_coverage');
    expect((await buildSection('earnings', place({ pc: PC }), join(fx.dir(), 'nothing-here'))).answer).toEqual({ status: 'not_synced', sync: 'publicdata sync earnings' });
  });
});
