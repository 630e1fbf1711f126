/**
 * Income tax: figures checked by hand against published tables.
 *  - 2025-26 rUK £45,000 / £30,028: gov.uk income tax rates (PA 12,570, basic 20% to 50,270).
 *  - 2026-27 Scotland: SPICe Table 8 "Differences between Scottish and rUK income tax liabilities, 2026-27"
 *    (parliament.scot, Scottish Budget 2026-27; figures rounded to the pound) and CIOT's reaction of 13 Jan 2026
 *    (tax.org.uk: £15,000 -> 462, £33,493 -> 4,185).
 *  - 1998-99: Finance Act 1998 (PA 4,195; lower rate 20% on 4,300; basic 23% to 27,100).
 */
import { describe, expect, it } from 'vitest';
import { data, err, get, post } from './personal-helpers.js';

const calc = (body: Record<string, unknown>) => data(post('/v1/tax/income/calculate', body));

describe('income tax, rUK', () => {
  it('2025-26 £45,000: 6,486.00 at basic rate', async () => {
    const d = await calc({ gross_income: 45000, tax_year: '2025-26' });
    expect(d).toMatchObject({ gross_income: 45000, personal_allowance: 12570, taxable_income: 32430, tax_year: '2025-26', region: 'england_wales_ni', total_income_tax: 6486 });
    expect(d.breakdown).toEqual([{ band: 'basic_rate', rate: 0.2, taxable_amount: 32430, tax: 6486 }]);
    expect(d.effective_rate).toBe(0.1441);
  });

  it('2025-26 £30,028: 3,491.60', async () => {
    expect((await calc({ gross_income: 30028, tax_year: '2025-26' })).total_income_tax).toBe(3491.6);
  });

  it('2025-26 £150,000: allowance fully tapered, additional rate above 125,140', async () => {
    const d = await calc({ gross_income: 150000, tax_year: '2025-26' });
    expect(d.personal_allowance).toBe(0);
    expect(d.breakdown.map((b: any) => b.tax)).toEqual([7540, 34976, 11187]);
    expect(d.total_income_tax).toBe(53703);
  });

  it('taper: £110,000 leaves a 7,570 allowance', async () => {
    const d = await calc({ gross_income: 110000, tax_year: '2026-27' });
    expect(d.personal_allowance).toBe(7570);
    expect(d.total_income_tax).toBe(7540 + (110000 - 7570 - 37700) * 0.4);
  });

  it('very large incomes stay exact (BigInt path): £250,000,000', async () => {
    const d = await calc({ gross_income: 250_000_000, tax_year: '2026-27' });
    expect(d.total_income_tax).toBe(7540 + 34976 + (250_000_000 - 125140) * 0.45);
    const ni = await data(post('/v1/tax/national-insurance/calculate', { annual_salary: 250_000_000, tax_year: '2026-27' }));
    expect(ni.employer.contributions).toBe((250_000_000 - 5000) * 0.15);
  });

  it('1998-99 £20,000: lower rate 20% on 4,300 then 23%', async () => {
    const d = await calc({ gross_income: 20000, tax_year: '1998-99' });
    expect(d.breakdown).toEqual([
      { band: 'lower_rate', rate: 0.2, taxable_amount: 4300, tax: 860 },
      { band: 'basic_rate', rate: 0.23, taxable_amount: 11505, tax: 2646.15 },
    ]);
    expect(d.total_income_tax).toBe(3506.15);
  });

  it('2010-11: 50% additional rate above 150,000 taxable', async () => {
    const d = await calc({ gross_income: 200000, tax_year: '2010-11' });
    expect(d.total_income_tax).toBe(37400 * 0.2 + (150000 - 37400) * 0.4 + 50000 * 0.5);
  });

  it('Wales is rUK: region england_wales_ni covers it', async () => {
    const d = await calc({ gross_income: 60000, tax_year: '2026-27', region: 'england_wales_ni' });
    expect(d.total_income_tax).toBe(11432);
  });
});

describe('income tax, Scotland 2026-27 (SPICe Table 8, CIOT)', () => {
  const spice: Array<[number, number]> = [
    [15000, 462], [20000, 1446], [25000, 2446], [30000, 3451], [33493, 4185], [35000, 4501], [40000, 5551], [45000, 6882],
    [50000, 8982], [55000, 11082], [60000, 13182], [65000, 15282], [70000, 17382], [75000, 19482], [80000, 21732],
    [85000, 23982], [90000, 26232], [95000, 28482], [100000, 30732], [150000, 59634],
  ];
  for (const [gross, published] of spice) {
    it(`£${gross} -> £${published}`, async () => {
      const d = await calc({ gross_income: gross, tax_year: '2026-27', region: 'scotland' });
      expect(Math.abs(d.total_income_tax - published)).toBeLessThanOrEqual(1);
    });
  }

  it('£150,000 to the penny, with the advanced rate band', async () => {
    const d = await calc({ gross_income: 150000, tax_year: '2026-27', region: 'scotland' });
    expect(d.total_income_tax).toBe(59634.35);
    expect(d.breakdown.map((b: any) => b.band)).toEqual(['starter_rate', 'basic_rate', 'intermediate_rate', 'higher_rate', 'advanced_rate', 'top_rate']);
  });

  it('before 2016-17 Scotland pays rUK rates', async () => {
    const s = await calc({ gross_income: 40000, tax_year: '2015-16', region: 'scotland' });
    const r = await calc({ gross_income: 40000, tax_year: '2015-16' });
    expect(s.total_income_tax).toBe(r.total_income_tax);
  });
});

describe('Marriage Allowance and Blind Person\'s Allowance', () => {
  it('recipient 2025-26 £30,000: tax reduced by 252', async () => {
    const d = await calc({ gross_income: 30000, tax_year: '2025-26', marriage_allowance_recipient: true });
    expect(d.total_income_tax).toBe(3486 - 252);
    expect(d.marriage_allowance).toMatchObject({ eligible: true, transferred_amount: 1260, tax_reduction: 252 });
  });

  it('recipient reduction is capped at the tax due', async () => {
    const d = await calc({ gross_income: 13000, tax_year: '2025-26', marriage_allowance_recipient: true });
    expect(d.total_income_tax).toBe(0);
    expect(d.marriage_allowance.tax_reduction).toBe(86);
  });

  it('recipient in Scotland may be an intermediate-rate taxpayer', async () => {
    const d = await calc({ gross_income: 40000, tax_year: '2026-27', region: 'scotland', marriage_allowance_recipient: true });
    // 753.73 + 2,597.80 + 10,474 x 21% (2,199.54) = 5,551.07, less 252
    expect(d.total_income_tax).toBe(5299.07);
  });

  it('422 marriage_allowance_ineligible: higher-rate recipient (rUK) and Scottish higher-rate recipient', async () => {
    expect(await err(post('/v1/tax/income/calculate', { gross_income: 55000, tax_year: '2025-26', marriage_allowance_recipient: true }))).toMatchObject({ status: 422, code: 'marriage_allowance_ineligible' });
    expect(await err(post('/v1/tax/income/calculate', { gross_income: 45000, tax_year: '2026-27', region: 'scotland', marriage_allowance_recipient: true }))).toMatchObject({ status: 422, code: 'marriage_allowance_ineligible' });
    expect(await err(post('/v1/tax/income/calculate', { gross_income: 20000, tax_year: '2014-15', marriage_allowance_recipient: true }))).toMatchObject({ status: 422, code: 'marriage_allowance_ineligible' });
  });

  it('rUK recipient exactly at the higher rate threshold is still eligible', async () => {
    const d = await calc({ gross_income: 50270, tax_year: '2025-26', marriage_allowance_recipient: true });
    expect(d.total_income_tax).toBe(7540 - 252);
  });

  it('transferor: own allowance reduced by 1,260', async () => {
    const d = await calc({ gross_income: 20000, tax_year: '2025-26', marriage_allowance_transferor: true });
    expect(d.personal_allowance).toBe(11310);
    expect(d.total_income_tax).toBe(1738);
  });

  it('both flags: 400 bad_request', async () => {
    expect(await err(post('/v1/tax/income/calculate', { gross_income: 20000, marriage_allowance_transferor: true, marriage_allowance_recipient: true }))).toMatchObject({ status: 400, code: 'bad_request' });
  });

  it('BPA 2026-27 adds 3,250; 2025-26 adds 3,130 after the taper', async () => {
    expect((await calc({ gross_income: 30000, tax_year: '2026-27', blind_persons_allowance: true })).personal_allowance).toBe(15820);
    const d = await calc({ gross_income: 120000, tax_year: '2025-26', blind_persons_allowance: true });
    expect(d.personal_allowance).toBe(2570 + 3130);
    expect(d.total_income_tax).toBe(38180);
  });

  it('BPA added after a Marriage Allowance transfer', async () => {
    const d = await calc({ gross_income: 20000, tax_year: '2026-27', blind_persons_allowance: true, marriage_allowance_transferor: true });
    expect(d.personal_allowance).toBe(12570 - 1260 + 3250);
  });
});

describe('income bands and errors', () => {
  it('bands 2025-26 in the GOVDATA-NOTES shape (edges on gross with the standard allowance)', async () => {
    const d = await data(get('/v1/tax/income/bands/2025-26'));
    expect(d.personal_allowance).toBe(12570);
    expect(d.personal_allowance_taper_threshold).toBe(100000);
    expect(d.regions.england_wales_ni.bands).toEqual([
      { name: 'basic_rate', label: 'Basic Rate', rate: 0.2, from: 12570, to: 50270 },
      { name: 'higher_rate', label: 'Higher Rate', rate: 0.4, from: 50270, to: 125140 },
      { name: 'additional_rate', label: 'Additional Rate', rate: 0.45, from: 125140, to: null },
    ]);
    expect(d.regions.scotland.bands[0]).toEqual({ name: 'starter_rate', rate: 0.19, from: 12570, to: 15397 });
    expect(d.regions.scotland.bands.map((b: any) => b.name)).toContain('advanced_rate');
  });

  it('bands default to the current year (2026-27 on 2026-11-21) and 2019-20 rUK edges', async () => {
    expect((await data(get('/v1/tax/income/bands'))).tax_year).toBe('2026-27');
    const d = await data(get('/v1/tax/income/bands/2019-20'));
    expect(d.regions.england_wales_ni.bands[1]).toMatchObject({ from: 50000, to: 150000 });
  });

  it('404 invalid_tax_year outside 1990-91..2026-27; 400 invalid_region; 400 bad_request without gross_income', async () => {
    expect(await err(post('/v1/tax/income/calculate', { gross_income: 1, tax_year: '1989-90' }))).toMatchObject({ status: 404, code: 'invalid_tax_year' });
    expect(await err(post('/v1/tax/income/calculate', { gross_income: 1, tax_year: '2027-28' }))).toMatchObject({ status: 404, code: 'invalid_tax_year' });
    expect(await err(get('/v1/tax/income/bands/2025-27'))).toMatchObject({ status: 404, code: 'invalid_tax_year' });
    expect(await err(post('/v1/tax/income/calculate', { gross_income: 1, region: 'atlantis' }))).toMatchObject({ status: 400, code: 'invalid_region' });
    const e = await err(post('/v1/tax/income/calculate', {}));
    expect(e).toMatchObject({ status: 400, code: 'bad_request' });
    expect(e.message).toContain('gross_income');
  });
});
