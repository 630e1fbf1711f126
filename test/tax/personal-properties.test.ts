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
  it('net = gross - total deductions, and total deductions = tax + NI + loans + pension, in pence', () => {
    fc.assert(
      fc.property(yearArb, regionArb, grossArb, pensionArb, (year, region, gross, pen) => {
        const y = yearParams(year)!;
        const plans = y.studentLoans ? ['plan_2', 'postgraduate'] : [];
        const r = takeHomeCore(y, { grossP: gross * 100, region, plans, pensionPpm: pen.pct * 10_000, pensionType: pen.type });
        expect(r.netP + r.totalDeductionsP).toBe(gross * 100);
        expect(r.totalDeductionsP).toBe(r.it.totalP + r.ni.employeeP + r.loansP + (r.pension?.deductedP ?? 0));
        expect(Number.isInteger(r.netP)).toBe(true);
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
        const step = y.ni.structure === 'entry_charge' ? y.ni.lelP : 0;
        expect(b.netP + mulStep(step)).toBeGreaterThanOrEqual(a.netP);
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

  it('the marginal rate matches the change in deductions over the next £1 (away from band edges)', () => {
    fc.assert(
      fc.property(fc.constantFrom('2025-26', '2026-27'), regionArb, fc.integer({ min: 0, max: 300_000 }), (year, region, g) => {
        const y = yearParams(year)!;
        const a = takeHomeCore(y, { grossP: g * 100, region, plans: ['plan_1'] });
        const b = takeHomeCore(y, { grossP: (g + 1) * 100, region, plans: ['plan_1'] });
        const c = takeHomeCore(y, { grossP: (g + 2) * 100, region, plans: ['plan_1'] });
        if (a.marginalPpm !== b.marginalPpm || b.marginalPpm !== c.marginalPpm) return; // crossing an edge
        const observed = c.totalDeductionsP - b.totalDeductionsP; // pence per £1
        expect(Math.abs(observed - a.marginalPpm / 10_000)).toBeLessThanOrEqual(1);
      }),
      { numRuns: 3000 },
    );
  });
});

function mulStep(lelP: number): number {
  return lelP === 0 ? 0 : Math.ceil(lelP * 0.02) + 100;
}
