/**
 * The property section of the area profile (src/domains/area-section.ts, docs/places.md): price paid for the
 * postcode's sector and district over the N months ending with the newest sale, the local authority's last
 * HPI month and its newest council tax bands, each through this domain's own routes.
 */
import { ApiError } from '../../contract/errors.js';
import { arr, ext, int, nullable, num as numS, obj, record, str } from '../../contract/schema.js';
import { lastDay, money, monthMinus, NotSynced, num, rows, type AreaSectionModule, type Json } from '../area-section.js';

const months = obj({ from: str('YYYY-MM'), to: str('YYYY-MM') });
const pricePaidArea = obj({
  area: str(), months, sales: int(), median_price: nullable(numS()), mean_price: nullable(numS()),
  by_property_type: arr(obj({ property_type: str(), sales: int(), median_price: nullable(numS()) })),
});

export const section: AreaSectionModule = {
  async build(c, p) {
    const sector = String(p.pc.sector);
    const district = String(p.pc.outcode);
    const parts: Record<string, unknown> = {};
    const missing: string[] = [];
    // price paid: the newest date the dataset holds (meta.as_of) sets the window
    try {
      const probe = await c.get('/v1/property/price-paid/statistics', { postcode: district });
      const newest = String(probe.meta?.as_of ?? p.today).slice(0, 7);
      const from = monthMinus(newest, p.months - 1);
      const stat = async (area: string) => {
        const d = (await c.get('/v1/property/price-paid/statistics', { postcode: area, from: `${from}-01`, to: lastDay(newest) })).data;
        return {
          area, months: { from, to: newest }, sales: d.transaction_count, median_price: d.overall?.median ?? null, mean_price: d.overall?.average ?? null,
          by_property_type: Object.entries(d.by_type ?? {}).map(([t, v]: [string, Json]) => ({ property_type: t, sales: v.count, median_price: v.median })),
        };
      };
      parts.price_paid = { sector: await stat(sector), district: await stat(district) };
    } catch (e) {
      if (!(e instanceof NotSynced)) throw e;
      parts.price_paid = null;
      missing.push(e.sync);
    }
    const la = p.pc.local_authority;
    try {
      if (!la?.name) throw new ApiError(404, 'not_found', 'no local authority name');
      const first = await c.get('/v1/property/hpi', { region: la.name, per_page: 1 });
      const total = Number(first.pagination?.total ?? 0);
      const last = total > 1 ? (await c.get('/v1/property/hpi', { region: la.name, per_page: 1, page: total })).data[0] : first.data[0];
      parts.hpi = last ? { area: la.name, month: String(last.date).slice(0, 7), average_price: last.average_price, annual_change_percent: last.annual_change } : null;
    } catch (e) {
      if (e instanceof NotSynced) missing.push(e.sync);
      else if (!(e instanceof ApiError)) throw e;
      parts.hpi = null;
    }
    try {
      if (!la?.code) throw new ApiError(404, 'not_found', 'no local authority');
      const { records } = await c.all('/v1/property/council-tax', { authority_code: la.code });
      const year = records.map((r) => String(r.financial_year)).sort().at(-1);
      const bands = Object.fromEntries(records.filter((r) => r.financial_year === year).map((r) => [r.band, r.amount]));
      parts.council_tax = year ? { year, local_authority: { code: la.code, name: la.name }, band_d: bands.D ?? null, bands } : null;
    } catch (e) {
      if (e instanceof NotSynced) missing.push(e.sync);
      else if (!(e instanceof ApiError)) throw e;
      parts.council_tax = null;
    }
    if (missing.length === 3) throw new NotSynced(missing.join(', '));
    return { status: 'ok', ...parts, ...(missing.length ? { not_synced: missing } : {}) };
  },

  figures: {
    price_paid: nullable(obj({ sector: pricePaidArea, district: pricePaidArea })),
    hpi: nullable(obj({ area: str(), month: str(), average_price: nullable(numS()), annual_change_percent: nullable(numS()) })),
    council_tax: nullable(obj({ year: str(), local_authority: obj({ code: str(), name: nullable(str()) }), band_d: nullable(numS()), bands: record(numS()) })),
    not_synced: ext(arr(str()), 'the sync commands of the parts not synced'),
  },
  optional: ['not_synced'],

  render(s, width) {
    const out: string[] = [];
    for (const k of ['sector', 'district'] as const) {
      const p = s.price_paid?.[k];
      if (p) out.push(...rows([[`sales ${p.area} ${p.months.from}..${p.months.to}`, `${num(p.sales)}, median ${money(p.median_price)}, mean ${money(p.mean_price)}`]], width));
    }
    if (s.hpi) out.push(...rows([[`HPI ${s.hpi.area} ${s.hpi.month}`, `${money(s.hpi.average_price)} (${s.hpi.annual_change_percent ?? 'n/a'}% a year)`]], width));
    if (s.council_tax) out.push(...rows([[`council tax ${s.council_tax.year}`, `band D ${money(s.council_tax.band_d)}`]], width));
    return out;
  },
};
