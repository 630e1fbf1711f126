/** Property tests of the personal-tax calculators (fast-check), called directly on the core for speed. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { incomeTax, takeHomeCore, type Region } from '../../src/domains/tax/personal-calc.js';
import { coveredYears, yearParams } from '../../src/domains/tax/personal-params.js';

const years = coveredYears();
const yearArb = fc.constantFrom(...years);
const regionArb = fc.constantFrom<Region>('england_wales_ni', 'scotland');
const grossArb = fc.integer({ min: 0, max: 400_000 });
const pensionArb = fc.record({
  pct: fc.integer({ min: 0, max: 20 }),
  type: fc.constantFrom('salary_sacrifice' as const, 'net_pay' as const, 'relief_at_source' as const),
});

describe('properties', () => {
  it('rUK 2025-26 and 2026-27 take-home equals an independent reference computation from the published rates', () => {
    // Published figures (gov.uk income-tax-rates; rates-and-thresholds-for-employers 2025-26 and 2026-27):
    // PA 12,570 tapered by £1 per £2 over 100,000; basic 20% to 37,700 taxable, higher 40% to 125,140,
    // additional 45%; employee NI 8% from 12,570 to 50,270, 2% above. Worked here in whole pence with
    // plain integer arithmetic, independently of src/domains/tax (tax per band rounded down, NI half down).
    const floorDiv = (a: number, b: number) => Math.floor(a / b);
    function reference(grossP: number): { taxP: number; niP: number } {
      const excess = Math.max(0, grossP - 10_000_000);
      const paP = Math.max(0, 1_257_000 - floorDiv(excess, 2));
      const taxable = Math.max(0, grossP - paP);
      const basic = Math.min(taxable, 3_770_000);
      const higher = Math.min(Math.max(0, taxable - 3_770_000), 12_514_000 - 3_770_000);
      const additional = Math.max(0, taxable - 12_514_000);
      const taxP = floorDiv(basic * 20, 100) + floorDiv(higher * 40, 100) + floorDiv(additional * 45, 100);
      const main = Math.min(Math.max(0, grossP - 1_257_000), 5_027_000 - 1_257_000);
      const upper = Math.max(0, grossP - 5_027_000);
      const halfDown = (n: number, d: number) => { const q = floorDiv(n, d); return 2 * (n - q * d) > d ? q + 1 : q; };
      return { taxP, niP: halfDown(main * 8, 100) + halfDown(upper * 2, 100) };
    }
    fc.assert(
      fc.property(fc.constantFrom('2025-26', '2026-27'), fc.integer({ min: 0, max: 30_000_000 }), (year, grossP) => {
        const r = takeHomeCore(yearParams(year)!, { grossP, region: 'england_wales_ni' });
        const ref = reference(grossP);
        expect([r.it.totalP, r.ni.employeeP, r.netP]).toEqual([ref.taxP, ref.niP, grossP - ref.taxP - ref.niP]);
      }),
      { numRuns: 3000 },
    );
  });

  it('deductions never exceed gross and net is whole pence (every year, region, pension type, student loans)', () => {
    fc.assert(
      fc.property(yearArb, regionArb, grossArb, pensionArb, (year, region, gross, pen) => {
        const y = yearParams(year)!;
        const plans = y.studentLoans ? ['plan_2', 'postgraduate'] : [];
        const r = takeHomeCore(y, { grossP: gross * 100, region, plans, pensionPpm: pen.pct * 10_000, pensionType: pen.type });
        expect(Number.isInteger(r.netP)).toBe(true);
        expect(r.netP).toBeGreaterThanOrEqual(0);
        expect(r.netP).toBeLessThanOrEqual(gross * 100);
      }),
      { numRuns: 2000 },
    );
  });

  it('income tax never decreases as income rises (every year, both regions, with and without allowances)', () => {
    fc.assert(
      fc.property(yearArb, regionArb, grossArb, fc.integer({ min: 1, max: 50_000 }), fc.boolean(), fc.boolean(), (year, region, g, d, bpa, tr) => {
        const y = yearParams(year)!;
        const opts = { region, bpa, maTransferor: tr && !!y.it.ma };
        const a = incomeTax(y, { grossP: g * 100, ...opts }).totalP;
        const b = incomeTax(y, { grossP: (g + d) * 100, ...opts }).totalP;
        expect(b).toBeGreaterThanOrEqual(a);
      }),
      { numRuns: 3000 },
    );
  });

  it('take-home net never decreases as gross rises without pension (the taper band still keeps 38p in the pound)', () => {
    fc.assert(
      fc.property(yearArb, regionArb, grossArb, fc.integer({ min: 1, max: 20_000 }), (year, region, g, d) => {
        const y = yearParams(year)!;
        const a = takeHomeCore(y, { grossP: g * 100, region });
        const b = takeHomeCore(y, { grossP: (g + d) * 100, region });
        // Pre-1999 the entry charge makes NI jump at the LEL (2% of the LEL at once): allow that step.
        const step = y.ni.structure === 'entry_charge' ? entryStep(y.ni.lelP, y.ni.entryPpm) : 0;
        expect(b.netP + step).toBeGreaterThanOrEqual(a.netP);
      }),
      { numRuns: 2000 },
    );
  });

  it('band edges are exact: at PA + basic limit all tax is basic rate; one pound more is taxed at the next rate', () => {
    for (const year of years) {
      const y = yearParams(year)!;
      for (const region of ['england_wales_ni', 'scotland'] as const) {
        const bands = region === 'scotland' ? y.it.scot : y.it.ruk;
        for (let i = 0; i < bands.length - 1; i++) {
          const edgeP = y.it.paP + bands[i]!.limitP;
          if (y.it.taperThresholdP !== null && edgeP > y.it.taperThresholdP) continue; // edges inside/after the taper zone move
          const at = incomeTax(y, { grossP: edgeP, region });
          const next = incomeTax(y, { grossP: edgeP + 100, region });
          expect(at.slices.length).toBe(i + 1);
          expect(at.slices[i]!.amountP).toBe(bands[i]!.limitP - (i === 0 ? 0 : bands[i - 1]!.limitP));
          expect(next.totalP - at.totalP).toBe(bands[i + 1]!.ppm / 10_000);
        }
      }
    }
  });

  it('marginal rate in the 100,000-125,140 taper band is 60% + 2% NI (rUK, 2021-22 onwards)', () => {
    const tapered = years.filter((y) => y >= '2021-22');
    fc.assert(
      fc.property(fc.constantFrom(...tapered), fc.integer({ min: 100_001, max: 125_139 }), (year, g) => {
        const y = yearParams(year)!;
        const r = takeHomeCore(y, { grossP: g * 100, region: 'england_wales_ni' });
        expect(r.it.taperActive).toBe(true);
        expect(r.marginalPpm).toBe(600_000 + y.ni.upperPpm);
      }),
      { numRuns: 1000 },
    );
  });

  it('the marginal rate matches the change in deductions over the next £100 (away from band edges)', () => {
    // Over £100 the deductions move by marginal rate x £100, give or take a penny of tax/NI rounding and the
    // student loan's rounding down to whole pounds (CSLM13013): at most 101p.
    fc.assert(
      fc.property(fc.constantFrom('2025-26', '2026-27'), regionArb, fc.integer({ min: 0, max: 300_000 }), (year, region, g) => {
        const y = yearParams(year)!;
        const a = takeHomeCore(y, { grossP: g * 100, region, plans: ['plan_1'] });
        const b = takeHomeCore(y, { grossP: (g + 100) * 100, region, plans: ['plan_1'] });
        const c = takeHomeCore(y, { grossP: (g + 200) * 100, region, plans: ['plan_1'] });
        if (a.marginalPpm !== b.marginalPpm || b.marginalPpm !== c.marginalPpm) return; // crossing an edge
        const observed = c.totalDeductionsP - b.totalDeductionsP; // pence per £100
        expect(Math.abs(observed - a.marginalPpm / 100)).toBeLessThanOrEqual(101);
      }),
      { numRuns: 3000 },
    );
  });
});

/** The entry charge: reaching the LEL costs entry rate x LEL at once (pence, rounded up). */
function entryStep(lelP: number, entryPpm: number): number {
  return Math.ceil((lelP * entryPpm) / 1_000_000);
}
