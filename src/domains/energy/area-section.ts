/**
 * The energy section of the area profile (src/domains/area-section.ts, docs/places.md): the price cap period
 * in force today and its GB-average Direct Debit single-rate rates; `no_coverage` outside Great Britain.
 */
import { nullable, num as numS, obj, oneOf, str } from '../../contract/schema.js';
import { money, rows, type AreaSectionModule, type Json } from '../area-section.js';

const rate = nullable(obj({ unit_rate: numS(), standing_charge: numS() }));

export const section: AreaSectionModule = {
  async build(c, p) {
    if (!p.country?.price_cap) return { status: 'no_coverage', note: 'The Ofgem price cap covers Great Britain only (England, Scotland and Wales).' };
    const period = (await c.get('/v1/energy/price-cap/periods/current')).data;
    const rates = ((await c.get('/v1/energy/price-cap/rates', { period: period.period_id })).data as Json[])
      .filter((r) => r.region?.code === 'gb_average' && r.payment_method === 'direct_debit' && r.meter === 'single_rate');
    const fuel = (f: string) => {
      const r = rates.find((x) => x.fuel === f);
      return r ? { unit_rate: r.unit_rate, standing_charge: r.standing_charge } : null;
    };
    return {
      status: 'ok', period_id: period.period_id, region: 'gb_average', typical_annual_bill: period.typical_annual_bill?.direct_debit ?? null,
      rates: { electricity: fuel('electricity'), gas: fuel('gas') },
      note: 'The directory does not carry the electricity distribution region that sets a regional rate: these are the GB-average Direct Debit single-rate figures.',
    };
  },

  figures: { period_id: str(), region: oneOf(['gb_average']), typical_annual_bill: nullable(numS()), rates: obj({ electricity: rate, gas: rate }) },

  render(s, width) {
    return rows([[`price cap ${s.period_id}`, `typical bill ${money(s.typical_annual_bill)} a year (GB average, Direct Debit)`]], width);
  },
};
