/**
 * The earnings section of the area profile (src/domains/area-section.ts, docs/places.md): the full-time
 * median annual gross pay by residence (ASHE) of the postcode's local authority, region and country, newest
 * year, and the take-home at the local median through the tax domain's calculator route (a route call, not
 * an import).
 */
import { arr, ext, int, nullable, num as numS, obj, oneOf, str } from '../../contract/schema.js';
import { money, rows, type AreaSectionModule, type Json } from '../area-section.js';

const earningsArea = nullable(obj({ code: str(), name: nullable(str()), year: int(), median: nullable(numS()), status: str() }));

export const section: AreaSectionModule = {
  async build(c, p) {
    const one = async (area: Json) => {
      if (!area?.code) return null;
      const d = ((await c.get('/v1/earnings/regions', { geography: area.code, basis: 'residence', population: 'full_time', measure: 'annual_gross' })).data as Json[])
        .sort((a, b) => b.year - a.year)[0];
      return d ? { code: area.code, name: d.geography?.name ?? area.name, year: d.year, median: d.median, status: d.status } : null;
    };
    const la = await one(p.pc.local_authority);
    const region = await one(p.pc.region);
    const country = await one(p.pc.country);
    if (!la && !region && !country) return { status: 'no_coverage', note: 'ASHE (residence) has no full-time median annual pay loaded for this place\'s local authority, region or country.' };
    const suppressed = [['local_authority', la], ['region', region], ['country', country]].filter(([, v]) => v && (v as Json).median === null).map(([k]) => k);
    const gross = la?.median ?? region?.median ?? null;
    const taxRegion = p.country?.tax_region ?? null;
    let take: Json = null;
    if (gross !== null && taxRegion) {
      const t = (await c.run('POST', '/v1/tax/take-home/calculate', {}, { gross_income: gross, region: taxRegion })).data;
      take = { gross, net: t.net_annual, tax_year: t.tax_year, of: la?.median !== null && la ? 'local_authority' : 'region' };
    }
    return { status: 'ok', local_authority: la, region, country, suppressed, take_home_at_median: take };
  },

  figures: {
    local_authority: earningsArea, region: earningsArea, country: earningsArea, suppressed: arr(str()),
    take_home_at_median: nullable(obj({ gross: numS(), net: numS(), tax_year: str(), of: ext(oneOf(['local_authority', 'region']), 'whose median') })),
  },

  render(s, width) {
    const out = rows((['local_authority', 'region', 'country'] as const).filter((k) => s[k]).map((k) => [`${s[k].name} ${s[k].year}`, `median ${money(s[k].median)}`]), width);
    if (s.take_home_at_median) out.push(...rows([[`take-home at ${money(s.take_home_at_median.gross)}`, `${money(s.take_home_at_median.net)} (${s.take_home_at_median.tax_year})`]], width));
    return out;
  },
};
