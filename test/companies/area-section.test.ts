/**
 * The companies section of the area profile (src/domains/companies/area-section.ts), built in process on
 * the companies fixture mirror alone (test/support/area-section.ts), against the register rows read here
 * (test/companies/fixture.ts's own CSV reading) and SIC 2007 sections by division, written out below from
 * the ONS SIC 2007 structure (not through the sic-codes route).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSection, place } from '../support/area-section.js';
import { useFixtureMirror } from '../support/route-samples.js';
import { GENERATED_LINES, isoDate, parseRow, REAL_LINES } from './fixture.js';

const fx = useFixtureMirror('pd-companies-area-', 'companies');

/** SIC 2007 section of a 5-digit code by its division (first two digits): ONS UK SIC 2007 structure. */
function sicSection(code: string): string {
  const d = Number(code.slice(0, 2));
  const ranges: Array<[number, number, string]> = [[1, 3, 'A'], [5, 9, 'B'], [10, 33, 'C'], [35, 35, 'D'], [36, 39, 'E'], [41, 43, 'F'], [45, 47, 'G'], [49, 53, 'H'], [55, 56, 'I'], [58, 63, 'J'], [64, 66, 'K'], [68, 68, 'L'], [69, 75, 'M'], [77, 82, 'N'], [84, 84, 'O'], [85, 85, 'P'], [86, 88, 'Q'], [90, 93, 'R'], [94, 96, 'S'], [97, 98, 'T'], [99, 99, 'U']];
  return ranges.find(([a, b]) => d >= a && d <= b)![2];
}

/** The register rows of a postcode sector (the outward code and the inward code's digit, spacing ignored), Active only. */
function activeIn(sector: string) {
  return [...REAL_LINES, ...GENERATED_LINES].map(parseRow).filter((r) => {
    const pc = r['RegAddress.PostCode']!.replace(/\s+/g, '').toUpperCase();
    return pc.length >= 5 && `${pc.slice(0, -3)} ${pc.slice(-3, -2)}` === sector && r.CompanyStatus === 'Active';
  });
}

describe('area section: companies', () => {
  for (const sector of ['AB11 7', 'EC1V 4']) {
    it(`the active companies registered in ${sector}, those incorporated in the last 12 months, by SIC section`, async () => {
      const { answer: s } = await buildSection('companies', place({ pc: { sector } }), join(fx.dir(), 'mirror'));
      const rows = activeIn(sector);
      expect(rows.length).toBeGreaterThan(0);
      expect(s).toMatchObject({ status: 'ok', sector, active_companies: rows.length });
      // the fixed date is 2026-11-21: incorporated after 2025-11-21
      expect(s.incorporated_last_12_months).toBe(rows.filter((r) => (isoDate(r.IncorporationDate!) ?? '') > '2025-11-21').length);
      const counts = new Map<string, number>();
      for (const r of rows) {
        const secs = new Set(['SICCode.SicText_1', 'SICCode.SicText_2', 'SICCode.SicText_3', 'SICCode.SicText_4'].map((k) => /^(\d{5}) /.exec(r[k] ?? '')?.[1]).filter((c): c is string => !!c).map(sicSection));
        for (const x of secs) counts.set(x, (counts.get(x) ?? 0) + 1);
      }
      const want = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 5).map(([section, count]) => ({ section, count }));
      expect((s.by_sic_section as any[]).map((x) => ({ section: x.section, count: x.count }))).toEqual(want);
    });
  }

  it('by hand: AB11 7 holds two active companies (68209 real estate, L; 70229 consultancy, M); EC1V 4 one incorporated on 2026-01-15 (J and M)', async () => {
    const a = (await buildSection('companies', place({ pc: { sector: 'AB11 7' } }), join(fx.dir(), 'mirror'))).answer as any;
    expect([a.active_companies, a.incorporated_last_12_months, a.by_sic_section.map((x: any) => `${x.section} ${x.count}`)]).toEqual([2, 0, ['L 1', 'M 1']]);
    const e = (await buildSection('companies', place({ pc: { sector: 'EC1V 4' } }), join(fx.dir(), 'mirror'))).answer as any;
    expect([e.active_companies, e.incorporated_last_12_months, e.by_sic_section.map((x: any) => `${x.section} ${x.count}`)]).toEqual([1, 1, ['J 1', 'M 1']]);
  });
});
