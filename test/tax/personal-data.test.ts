/**
 * The personal-tax data files (data/tax/*.yaml, read from the repository itself): every year entry has a
 * non-empty list of sources, coverage is what the spec promises, and the files agree with each other.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'data', 'tax');
const load = (f: string): any => parse(readFileSync(join(DATA, f), 'utf8'));
const YEAR = /^\d{4}-\d{2}$/;
const isSource = (s: unknown) => typeof s === 'string' && /^(https?:\/\/|github:)/.test(s);

function yearsRange(from: number, to: number): string[] {
  const out: string[] = [];
  for (let y = from; y <= to; y++) out.push(`${y}-${String((y + 1) % 100).padStart(2, '0')}`);
  return out;
}

/** Every object keyed by tax year under `node` (recursively), with its path. */
function yearEntries(node: any, path = ''): Array<[string, any]> {
  const out: Array<[string, any]> = [];
  if (node && typeof node === 'object' && !Array.isArray(node)) {
    for (const [k, v] of Object.entries(node)) {
      if (YEAR.test(k)) out.push([`${path}.${k}`, v]);
      else out.push(...yearEntries(v, `${path}.${k}`));
    }
  }
  return out;
}

const FILES_WITH_SOURCES = ['income-tax.yaml', 'income-tax-scotland.yaml', 'national-insurance.yaml', 'ni-categories.yaml', 'allowances.yaml', 'student-loans.yaml', 'pensions.yaml'];

describe('personal tax data files', () => {
  for (const f of FILES_WITH_SOURCES) {
    it(`${f}: every year entry (and its Class 2 / Class 4 groups) has a non-empty source list of URLs`, () => {
      const entries = yearEntries(load(f));
      expect(entries.length).toBeGreaterThan(0);
      for (const [path, v] of entries) {
        expect(Array.isArray(v.source) && v.source.length > 0, `${f}${path}`).toBe(true);
        for (const s of v.source) expect(isSource(s), `${f}${path}: ${s}`).toBe(true);
        for (const group of ['class_2', 'class_4']) {
          if (v[group]) expect(v[group].source.length > 0 && v[group].source.every(isSource), `${f}${path}.${group}`).toBe(true);
        }
      }
    });
  }

  it('tax-years.yaml has a source and every year 1990-91..2026-27 with consistent dates', () => {
    const t = load('tax-years.yaml');
    expect(t.source.length).toBeGreaterThan(0);
    expect(Object.keys(t.years)).toEqual(yearsRange(1990, 2026));
    for (const [id, y] of Object.entries<any>(t.years)) {
      const s = Number(id.slice(0, 4));
      expect(y.start_date).toBe(`${s}-04-06`);
      expect(y.end_date).toBe(`${s + 1}-04-05`);
      if (s >= 1996) expect(y.key_dates.self_assessment_deadline).toBe(`${s + 2}-01-31`);
      expect(y.key_dates.p60_deadline).toBe(`${s + 1}-05-31`);
    }
  });

  it('coverage: income tax and NI 1990-91..2026-27, Scotland from 2016-17 with the advanced rate from 2024-25', () => {
    expect(Object.keys(load('income-tax.yaml').years)).toEqual(yearsRange(1990, 2026));
    expect(Object.keys(load('national-insurance.yaml').years)).toEqual(yearsRange(1990, 2026));
    const sc = load('income-tax-scotland.yaml').years;
    expect(Object.keys(sc)).toEqual(yearsRange(2016, 2026));
    for (const [y, v] of Object.entries<any>(sc)) {
      const adv = v.bands.find((b: any) => b.name === 'advanced_rate');
      if (y >= '2024-25') expect(adv?.rate).toBe(0.45);
      else expect(adv).toBeUndefined();
    }
    expect(Object.keys(load('student-loans.yaml').years)).toEqual(['2025-26', '2026-27']);
    expect(Object.keys(load('pensions.yaml').years)).toEqual(['2025-26', '2026-27']);
  });

  it('Scottish published gross ranges agree with the taxable-income limits plus the personal allowance', () => {
    const it = load('income-tax.yaml').years;
    for (const [y, v] of Object.entries<any>(load('income-tax-scotland.yaml').years)) {
      const pa = it[y].personal_allowance;
      v.bands.forEach((b: any, i: number) => {
        const pub = v.published_gross_ranges[i];
        expect(pub.name).toBe(b.name);
        if (b.to_taxable === null) expect(pub.to).toBeNull();
        else if (b.to_taxable < 100000) expect(pub.to, `${y} ${b.name}`).toBe(b.to_taxable + pa);
        else expect(pub.to).toBe(b.to_taxable);
      });
    }
  });

  it('NI 2022-23 and 2023-24 carry the documented annual rates', () => {
    const ni = load('national-insurance.yaml').years;
    expect(ni['2022-23'].employee).toMatchObject({ main_rate: 0.1273, upper_rate: 0.0273 });
    expect(ni['2022-23'].employer.rate).toBe(0.1453);
    expect(ni['2022-23'].annual.primary_threshold).toBe(11908);
    expect(ni['2022-23'].class_4).toMatchObject({ main_rate: 0.0973, upper_rate: 0.0273, lower_profits_limit: 11908 });
    expect(ni['2023-24'].employee.main_rate).toBe(0.115);
  });

  it('Marriage Allowance is 10% of the personal allowance rounded up to 10, and the reduction 20% of it', () => {
    const it = load('income-tax.yaml').years;
    for (const [y, v] of Object.entries<any>(load('allowances.yaml').marriage_allowance.years)) {
      expect(v.transferable_amount, y).toBe(Math.ceil(it[y].personal_allowance / 100) * 10);
      expect(v.tax_reduction, y).toBe(v.transferable_amount / 5);
    }
  });
});
