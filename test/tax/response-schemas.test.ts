/**
 * The tax routes' response schemas (src/domains/tax/schemas*.ts) against real answers beyond the one
 * sample per route of test/server/conformance.test.ts: every covered year of every reference route, the
 * calculators' variants (flags, historical years, self-employed NI, BADR over the limit, corporation tax
 * before FY2023), every golden tax case and every golden VAT return at each breakdown_detail; and the
 * schemas bite on the tax shapes (a spec field removed, mistyped, an undeclared field added).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { openApiDocument } from '../../src/server/openapi.js';
import { ROUTES, loadResponseSchemas } from '../../src/registry.js';
import type { HttpMethod } from '../../src/contract/types.js';
import { answerValidator, type AnswerValidator } from '../support/openapi-validate.js';
import { callRoute } from '../support/route.js';

let validate: AnswerValidator;
beforeAll(async () => {
  validate = answerValidator(openApiDocument(ROUTES, 'http://127.0.0.1:8080/v1', { auth: true, responses: await loadResponseSchemas() }));
});

const TAX = ROUTES.filter((r) => r.domain === 'tax');
/** The tax route a method and concrete path match (literal segments win over `{param}`, as the router). */
function routeOf(method: string, path: string): string {
  const hits = TAX.filter((r) => r.method === method && new RegExp(`^${r.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
  const params = (p: string) => (p.match(/\{/g) ?? []).length;
  hits.sort((a, b) => params(a.path) - params(b.path));
  if (!hits.length) throw new Error(`no tax route for ${method} ${path}`);
  return hits[0]!.id;
}

/** Calls the route; returns the misfits of a 200 answer (and the status). */
async function check(method: HttpMethod, path: string, body?: unknown, query: Record<string, string> = {}): Promise<{ status: number; misfits: string[] }> {
  const r = await callRoute(method, path, { query, ...(body !== undefined ? { body } : {}) });
  if (r.status !== 200) return { status: r.status, misfits: [] };
  return { status: 200, misfits: validate(routeOf(method, path.split('?')[0]!), r.envelope) };
}

const YEARS = Array.from({ length: 37 }, (_, i) => `${1990 + i}-${String((91 + i) % 100).padStart(2, '0')}`);

describe('tax response schemas: every covered year of the reference routes', () => {
  it('YEARS runs 1990-91 to 2026-27', () => {
    expect([YEARS[0], YEARS[9], YEARS[36], YEARS.length]).toEqual(['1990-91', '1999-00', '2026-27', 37]);
  });

  it('every /{tax_year} GET and every tax year answers in its schema', async () => {
    const byYear = TAX.filter((r) => r.method === 'GET' && r.path.endsWith('/{tax_year}'));
    expect(byYear.length).toBe(10);
    const misfits: string[] = [];
    const answered = new Map<string, number>();
    for (const r of byYear) {
      for (const y of YEARS) {
        const c = await check('GET', r.path.replace('{tax_year}', y));
        misfits.push(...c.misfits);
        if (c.status === 200) answered.set(r.id, (answered.get(r.id) ?? 0) + 1);
        else expect([r.id, y, c.status]).toEqual([r.id, y, 404]);
      }
    }
    for (const y of YEARS) misfits.push(...(await check('GET', `/v1/tax/years/${y}`)).misfits);
    misfits.push(...(await check('GET', '/v1/tax/years', undefined, { per_page: '100' })).misfits);
    expect(misfits).toEqual([]);
    // Coverage as the spec states it: income tax and NI from 1990-91; VAT, CGT, dividends, corporation tax from 2020-21;
    // student loans and pensions from 2025-26; NI category letters from 2024-25 (the tables held).
    expect(Object.fromEntries(answered)).toEqual({
      'tax.income.bands.year': 37,
      'tax.ni.thresholds.year': 37,
      'tax.ni.categories.year': 3,
      'tax.vat.rates.year': 7,
      'tax.cgt.rates.year': 7,
      'tax.cgt.allowances.year': 7,
      'tax.dividends.rates.year': 7,
      'tax.student-loan.thresholds.year': 2,
      'tax.pension.allowances.year': 2,
      'tax.corporation.rates.year': 7,
    });
  }, 60_000);
});

describe('tax response schemas: calculator variants', () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ['/v1/tax/income/calculate', { gross_income: 30000, marriage_allowance_recipient: true }],
    ['/v1/tax/income/calculate', { gross_income: 30000, marriage_allowance_transferor: true, blind_persons_allowance: true }],
    ['/v1/tax/income/calculate', { gross_income: 130000, region: 'scotland', tax_year: '2024-25' }],
    ['/v1/tax/income/calculate', { gross_income: 20000, tax_year: '1995-96' }],
    ['/v1/tax/income/calculate', { gross_income: 20000, tax_year: '2005-06', region: 'scotland' }],
    ['/v1/tax/national-insurance/calculate', { annual_salary: 60000, director: true }],
    ['/v1/tax/national-insurance/calculate', { annual_salary: 8320, tax_year: '1997-98' }],
    ['/v1/tax/national-insurance/calculate', { annual_salary: 60000, category: 'M' }],
    ['/v1/tax/national-insurance/calculate', { type: 'self_employed', annual_profit: 40000, tax_year: '2022-23' }],
    ['/v1/tax/national-insurance/calculate', { type: 'self_employed', annual_profit: 5000 }],
    ['/v1/tax/take-home/calculate', { gross_income: 110000, region: 'scotland', pension_contribution_percent: 5, pension_type: 'relief_at_source', student_loan_plans: ['plan_1', 'postgraduate'] }],
    ['/v1/tax/take-home/calculate', { gross_income: 25000, marriage_allowance_recipient: true, pension_contribution_percent: 3, pension_type: 'salary_sacrifice' }],
    ['/v1/tax/compare', { scenario_a: { gross_income: 0 }, scenario_b: { gross_income: 30000, pension_contribution_percent: 4 }, tax_year: '2025-26' }],
    ['/v1/tax/employer-cost/calculate', { annual_salary: 30000, num_employees: 3, employment_allowance: true }],
    ['/v1/tax/employer-cost/calculate', { annual_salary: 30000, employment_allowance: true, tax_year: '2010-11' }],
    ['/v1/tax/vat/calculate', { amount: 120, direction: 'inclusive', rate: 'reduced' }],
    ['/v1/tax/vat/calculate', { amount: 10, rate: 'zero', date: '2021-01-15' }],
    ['/v1/tax/capital-gains/calculate', { gain: 1500000, asset_type: 'business_asset_disposal', taxpayer_band: 'higher' }],
    ['/v1/tax/capital-gains/calculate', { gain: 50000, asset_type: 'other_assets', taxpayer_band: 'basic', disposal_date: '2024-08-01' }],
    ['/v1/tax/dividends/calculate', { dividend_income: 100, taxpayer_band: 'additional', tax_year: '2020-21' }],
    ['/v1/tax/student-loan/calculate', { annual_income: 10000, plan_types: ['plan_5'] }],
    ['/v1/tax/corporation/calculate', { profit: 120000, tax_year: '2021-22' }],
    ['/v1/tax/corporation/calculate', { profit: 40000, associated_companies: 1 }],
    ['/v1/tax/corporation/calculate', { profit: 400000 }],
  ];

  it('each answers 200 in its schema', async () => {
    const misfits: string[] = [];
    for (const [path, body] of cases) {
      const c = await check('POST', path, body);
      expect([path, body, c.status]).toEqual([path, body, 200]);
      misfits.push(...c.misfits);
    }
    expect(misfits).toEqual([]);
  });
});

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'tax', 'golden');
const yamlCases = (dir: string): any[] =>
  readdirSync(join(GOLDEN, dir))
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((f) => parse(readFileSync(join(GOLDEN, dir, f), 'utf8')) as any[]);

describe('tax response schemas: the golden cases', () => {
  it('every golden tax case that answers 200 is in its schema', async () => {
    const misfits: string[] = [];
    let ok = 0;
    for (const c of yamlCases('tax')) {
      const [method, path] = String(c.route).trim().split(/\s+/) as [HttpMethod, string];
      const r = await check(method, path, method === 'POST' ? c.body : undefined);
      if (r.status === 200) ok++;
      misfits.push(...r.misfits.map((m) => `${c.id}: ${m}`));
    }
    expect(misfits).toEqual([]);
    expect(ok).toBeGreaterThan(50);
  }, 60_000);

  it('every golden VAT return, at breakdown_detail full, summary and none, is in its schema', async () => {
    const misfits: string[] = [];
    const seen = new Set<string>();
    let ok = 0;
    for (const c of yamlCases('vat-return')) {
      if (c.expect?.errors) continue;
      for (const detail of ['full', 'summary', 'none']) {
        const r = await callRoute('POST', '/v1/tax/vat/return/calculate', { body: c.body, query: { breakdown_detail: detail } });
        expect([c.name, detail, r.status]).toEqual([c.name, detail, 200]);
        ok++;
        misfits.push(...validate('tax.vat.return.calculate', r.envelope).map((m) => `${c.name} (${detail}): ${m}`));
        for (const k of Object.keys(r.envelope.data)) seen.add(k);
        for (const row of r.envelope.data.breakdown?.transactions ?? []) seen.add(`row:${Object.keys(row).sort().join(',')}`);
      }
    }
    expect(misfits).toEqual([]);
    expect(ok).toBeGreaterThanOrEqual(60);
    // The variants the schema declares occur among the cases: partial exemption, fuel scale charges, and the
    // fuel and partial exemption rows of the full breakdown.
    expect([...seen].filter((k) => !k.startsWith('row:')).sort()).toEqual(
      ['boxes', 'breakdown', 'fuel_scale_charges', 'partial_exemption', 'return_period', 'rounding_summary', 'scheme_summary', 'warnings'].sort(),
    );
    expect([...seen].some((k) => k.startsWith('row:') && k.includes('fuel_scale_charge'))).toBe(true);
    expect([...seen].some((k) => k.startsWith('row:') && k.includes('partial_exemption'))).toBe(true);
    expect([...seen].some((k) => k.startsWith('row:') && k.includes('excluded_reason'))).toBe(true);
  }, 60_000);
});

describe('tax response schemas bite', () => {
  it('a spec field removed or mistyped, or a field added, fails', async () => {
    const home = (await callRoute('POST', '/v1/tax/take-home/calculate', { body: { gross_income: 45000 } })).envelope;
    expect(validate('tax.take-home.calculate', home)).toEqual([]);
    const { net_weekly: _n, ...noWeekly } = home.data;
    expect(validate('tax.take-home.calculate', { ...home, data: noWeekly }).join()).toMatch(/net_weekly/);
    expect(validate('tax.take-home.calculate', { ...home, data: { ...home.data, net_annual: '34514.60' } }).join()).toMatch(/net_annual/);
    expect(validate('tax.take-home.calculate', { ...home, data: { ...home.data, net_yearly: 1 } }).join()).toMatch(/additional/);

    const ret = (await callRoute('POST', '/v1/tax/vat/return/calculate', {
      body: {
        period: { start_date: '2026-07-01', end_date: '2026-09-30' },
        transactions: [{ id: 'A', date: '2026-08-01', type: 'sale', net_amount: 100, vat_amount: 20, gross_amount: 120, vat_rate: 'standard', vat_rate_percentage: 20, supply_type: 'domestic', is_capital_asset: false }],
      },
    })).envelope;
    expect(validate('tax.vat.return.calculate', ret)).toEqual([]);
    const { box_5: _b, ...eight } = ret.data.boxes;
    expect(validate('tax.vat.return.calculate', { ...ret, data: { ...ret.data, boxes: eight } }).join()).toMatch(/box_5/);
    const { source_url: _s, ...noUrl } = ret.meta;
    expect(validate('tax.vat.return.calculate', { ...ret, meta: noUrl }).join()).toMatch(/source_url/);

    const years = (await callRoute('GET', '/v1/tax/years', { query: { per_page: '2' } })).envelope;
    expect(validate('tax.years.list', years)).toEqual([]);
    // GOVDATA-NOTES §Tax: the tax years' meta has only api_version and licence.
    expect(Object.keys(years.meta).sort()).toEqual(['api_version', 'licence']);
    const { pagination: _p, ...noPages } = years;
    expect(validate('tax.years.list', noPages).join()).toMatch(/pagination/);
    const bad = { ...years, data: [{ ...years.data[0], start_date: '6 April 2026' }] };
    expect(validate('tax.years.list', bad).join()).toMatch(/start_date/);

    const cats = (await callRoute('GET', '/v1/tax/national-insurance/categories')).envelope;
    const nullEmployer = { ...cats, data: { ...cats.data, categories: [{ ...cats.data.categories[0], employer: { rate: null, reduced_rate: false } }] } };
    expect(validate('tax.ni.categories', nullEmployer).join()).toMatch(/employer\/rate/);
  });
});
