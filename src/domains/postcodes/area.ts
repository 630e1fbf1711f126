/**
 * GET /v1/area/{postcode}: the area profile (spec 5-places.md). The postcode comes from /v1/postcodes/{postcode};
 * every section is built from its own domain's routes, run through the handler context's `call` (the handler
 * runner runs them locally, validated like any call): this file imports no other domain. A section whose
 * dataset is not synced says `not_synced` with the sync command its route names; the others still answer.
 * Each `ok` section lists its `source`: the request paths it read, runnable with `publicdata api GET …`.
 * How each figure is computed, and what is approximate: docs/places.md.
 */
import { ApiError } from '../../contract/errors.js';
import type { CallResult, Handler, HandlerContext, Meta, RouteCall } from '../../contract/types.js';
import { meta as baseMeta } from '../../contract/envelope.js';
import { haversineKm } from '../../mirror/geo.js';
import { reference } from './record.js';
import { AREA_SECTIONS, type AreaSection } from './routes.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
type Section = Record<string, unknown> & { status: string };

/** A section's data is not synced: the sync command its route named. */
class NotSynced extends Error {
  constructor(readonly sync: string) {
    super(sync);
  }
}

/** The sub-calls of one section: each GET or POST through ctx.call, its path recorded as a source. */
class Calls {
  readonly source: string[] = [];
  asOf: string | null = null;
  constructor(private readonly ctx: HandlerContext) {}

  async run(method: 'GET' | 'POST', path: string, query: Record<string, string | number | boolean> = {}, body?: unknown): Promise<Json> {
    const q = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]));
    const call: RouteCall = { method, path, query: q, ...(body !== undefined ? { body } : {}) };
    const qs = new URLSearchParams(q).toString();
    this.source.push(`${method === 'POST' ? 'POST ' : ''}${path}${qs ? `?${qs}` : ''}${body !== undefined ? ` ${JSON.stringify(body)}` : ''}`);
    const r: CallResult = await this.ctx.call!(call);
    const env = r.envelope as Json;
    if (r.status >= 400) {
      const code = String(env?.error?.code ?? '');
      const msg = String(env?.error?.message ?? '');
      if (code === 'dataset_not_synced') throw new NotSynced(/'(publicdata sync [\w-]+)'/.exec(msg)?.[1] ?? 'publicdata sync');
      throw new ApiError(r.status, code || 'internal_error', msg);
    }
    const a = env?.meta?.as_of;
    if (typeof a === 'string' && (this.asOf === null || a > this.asOf)) this.asOf = a;
    return env;
  }
  get(path: string, query: Record<string, string | number | boolean> = {}): Promise<Json> {
    return this.run('GET', path, query);
  }
  /** Every record of a paged list (100 a page). */
  async all(path: string, query: Record<string, string | number | boolean> = {}): Promise<{ records: Json[]; first: Json }> {
    const first = await this.get(path, { ...query, per_page: 100, page: 1 });
    const records = [...(first.data as Json[])];
    const pages = Number(first.pagination?.total_pages ?? 1);
    for (let p = 2; p <= pages; p++) records.push(...((await this.get(path, { ...query, per_page: 100, page: p })).data as Json[]));
    return { records, first };
  }
}

interface Place {
  pc: Json;
  lat: number | null;
  lng: number | null;
  radius: number;
  months: number;
  today: string;
}

/** YYYY-MM minus n months. */
function monthMinus(ym: string, n: number): string {
  const [y, m] = ym.split('-').map(Number) as [number, number];
  const t = y * 12 + (m - 1) - n;
  return `${Math.floor(t / 12)}-${String((t % 12) + 1).padStart(2, '0')}`;
}
function lastDay(ym: string): string {
  const [y, m] = ym.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}
const countBy = (xs: readonly string[]): Record<string, number> => {
  const o: Record<string, number> = {};
  for (const x of xs) o[x] = (o[x] ?? 0) + 1;
  return o;
};
const round3 = (x: number) => Math.round(x * 1000) / 1000;

function noLocation(): Section {
  return { status: 'no_location', note: 'The directory has no grid reference for this postcode (quality 9): there is no point to draw a circle around.' };
}

const SECTIONS: Record<AreaSection, (c: Calls, p: Place) => Promise<Section>> = {
  async property(c, p) {
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

  async crime(c, p) {
    if (p.lat === null) return noLocation();
    const forces = (await c.get('/v1/crime/forces')).data as Json[];
    const newest = forces.map((f) => String(f.months?.to ?? '')).sort().at(-1);
    if (!newest) throw new NotSynced('publicdata sync crime');
    const from = monthMinus(newest, p.months - 1);
    const answer = await c.get('/v1/crime/statistics', { lat: p.lat, lng: p.lng!, radius_km: p.radius, month_from: from, month_to: newest });
    const d = answer.data;
    // no loaded force-month covers this place in the window: the statistics route answers null figures, not 0
    if (d.total === null || d.total === undefined) {
      return { status: 'no_coverage', note: String(answer.meta?.note ?? `No force loaded in the mirror covers this place for ${from} to ${newest}; 'publicdata sync crime' loads every force.`) };
    }
    // every month of the window, a month without crimes as 0 (the statistics route lists months with crimes)
    const counts = new Map((d.by_month as Json[]).map((m) => [String(m.month), Number(m.count)]));
    const byMonth = Array.from({ length: p.months }, (_, i) => monthMinus(newest, p.months - 1 - i)).map((m) => ({ month: m, count: counts.get(m) ?? 0 }));
    return { status: 'ok', months: { from, to: newest }, radius_km: p.radius, total: d.total, by_category: d.by_category, by_month: byMonth };
  },

  async schools(c, p) {
    if (p.lat === null) return noLocation();
    const { records } = await c.all('/v1/schools', { lat: p.lat, lng: p.lng!, radius_km: p.radius });
    const outcome = (s: Json) => s.latest_inspection?.overall_effectiveness ?? s.latest_inspection?.outcome ?? s.latest_inspection?.framework ?? 'not_inspected';
    return {
      status: 'ok', radius_km: p.radius, count: records.length,
      by_phase: countBy(records.map((s) => String(s.phase ?? 'unknown'))),
      by_outcome: countBy(records.map((s) => String(outcome(s)))),
      nearest: records.slice(0, 10).map((s) => ({ urn: s.urn, name: s.name, phase: s.phase, distance_km: s.distance_km, latest_inspection: s.latest_inspection })),
    };
  },

  async food_hygiene(c, p) {
    if (p.lat === null) return noLocation();
    const { records } = await c.all('/v1/food-hygiene/establishments', { lat: p.lat, lng: p.lng!, radius_km: p.radius, sort: 'distance' });
    const numeric = records.filter((e) => typeof e.rating?.numeric === 'number');
    return {
      status: 'ok', radius_km: p.radius, count: records.length,
      by_rating: countBy(records.map((e) => String(e.rating?.value ?? 'unknown'))),
      share_4_or_5: numeric.length ? round3(numeric.filter((e) => e.rating.numeric >= 4).length / numeric.length) : null,
      lowest_rated: numeric.filter((e) => e.rating.numeric <= 2).slice(0, 5)
        .map((e) => ({ fhrs_id: e.fhrs_id, business_name: e.business_name, rating: e.rating.numeric, distance_km: e.distance_km })),
    };
  },

  async road_safety(c, p) {
    if (p.lat === null) return noLocation();
    // the vehicles domain's radius summary over the newest five years held (the route's default years);
    // the records behind it: the same query on /v1/vehicles/road-safety/nearby
    const d = (await c.get('/v1/vehicles/road-safety/nearby/summary', { lat: p.lat, lng: p.lng!, radius_km: p.radius })).data;
    return { status: 'ok', radius_km: d.radius_km, years: d.years, collisions: d.collisions, by_severity: d.by_severity, casualties: d.casualties };
  },

  async traffic(c, p) {
    if (p.lat === null) return noLocation();
    const pts = (await c.get('/v1/vehicles/traffic/count-points', { lat: p.lat, lng: p.lng!, radius_km: p.radius, per_page: 3 })).data as Json[];
    const out = [];
    for (const cp of pts) {
      const a = (await c.get('/v1/vehicles/traffic/aadf', { count_point: cp.count_point_id, year_from: cp.year, year_to: cp.year })).data as Json[];
      out.push({
        count_point_id: cp.count_point_id, road_name: cp.road_name,
        distance_km: typeof cp.distance_km === 'number' ? cp.distance_km : round3(haversineKm(p.lat, p.lng!, Number(cp.latitude), Number(cp.longitude))),
        year: cp.year, all_motor_vehicles: a[0]?.daily_flows?.all_motor_vehicles ?? null,
      });
    }
    return { status: 'ok', radius_km: p.radius, count_points: out };
  },

  async earnings(c, p) {
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
    const taxRegion = (reference().countries[String(p.pc.country?.code)] as Json)?.tax_region ?? null;
    let take: Json = null;
    if (gross !== null && taxRegion) {
      const t = (await c.run('POST', '/v1/tax/take-home/calculate', {}, { gross_income: gross, region: taxRegion })).data;
      take = { gross, net: t.net_annual, tax_year: t.tax_year, of: la?.median !== null && la ? 'local_authority' : 'region' };
    }
    return { status: 'ok', local_authority: la, region, country, suppressed, take_home_at_median: take };
  },

  async companies(c, p) {
    const sector = String(p.pc.sector);
    const { records } = await c.all('/v1/companies', { postcode: sector, status: 'active' });
    const since = new Date(`${p.today}T00:00:00Z`);
    since.setUTCFullYear(since.getUTCFullYear() - 1);
    const cut = since.toISOString().slice(0, 10);
    const sections = new Map<string, { label: string; count: number }>();
    const known = new Map<string, { section: string | null; label: string | null }>();
    for (const r of records) {
      const seen = new Set<string>();
      for (const code of (r.sic_codes ?? []) as string[]) {
        if (!known.has(code)) {
          try {
            const s = (await c.get(`/v1/companies/sic-codes/${encodeURIComponent(code)}`)).data;
            known.set(code, { section: s.section ?? null, label: s.section_description ?? null });
          } catch (e) {
            if (!(e instanceof ApiError)) throw e;
            known.set(code, { section: null, label: null });
          }
        }
        const k = known.get(code)!;
        if (!k.section || seen.has(k.section)) continue;
        seen.add(k.section);
        const cur = sections.get(k.section) ?? { label: k.label ?? k.section, count: 0 };
        cur.count++;
        sections.set(k.section, cur);
      }
    }
    return {
      status: 'ok', sector, active_companies: records.length,
      incorporated_last_12_months: records.filter((r) => typeof r.date_of_creation === 'string' && r.date_of_creation > cut).length,
      by_sic_section: [...sections].sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0])).slice(0, 5)
        .map(([section, v]) => ({ section, label: v.label, count: v.count })),
    };
  },

  async energy(c, p) {
    const country = reference().countries[String(p.pc.country?.code)] as Json;
    if (!country?.price_cap) return { status: 'no_coverage', note: 'The Ofgem price cap covers Great Britain only (England, Scotland and Wales).' };
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

  async calendar(c, p) {
    const division = (reference().countries[String(p.pc.country?.code)] as Json)?.division as string | null | undefined;
    if (!division) return { status: 'no_coverage', note: 'GOV.UK publishes bank holidays for England and Wales, Scotland and Northern Ireland only.' };
    const d = (await c.get('/v1/calendar/bank-holidays/next', { region: division.replace(/-/g, '_') })).data;
    const h = d.bank_holidays?.[0];
    return { status: 'ok', division, next_bank_holiday: h ? { date: h.date, title: h.title } : null };
  },
};

export const profile: Handler = async (req, ctx) => {
  const raw = String(req.params.postcode);
  const q = req.query;
  const radius = Number(q.radius_km ?? 1);
  const months = Number(q.months ?? 12);
  const wanted: AreaSection[] = Array.isArray(q.sections) && q.sections.length ? (q.sections as AreaSection[]) : [...AREA_SECTIONS];
  const pcCalls = new Calls(ctx);
  let pcEnv: Json;
  try {
    pcEnv = await pcCalls.get(`/v1/postcodes/${encodeURIComponent(raw.trim())}`);
  } catch (e) {
    if (e instanceof NotSynced) throw new ApiError(503, 'dataset_not_synced', `The area profile starts from the postcode: run '${e.sync}' first.`);
    throw e;
  }
  const pc = pcEnv.data;
  const place: Place = {
    pc, lat: pc.location?.latitude ?? null, lng: pc.location?.longitude ?? null, radius, months, today: ctx.now().toISOString().slice(0, 10),
  };
  const sections: Record<string, Section> = {};
  const asOf: Record<string, string | null> = {};
  const missing: string[] = [];
  for (const name of AREA_SECTIONS.filter((s) => wanted.includes(s))) {
    const calls = new Calls(ctx);
    try {
      const s = await SECTIONS[name](calls, place);
      sections[name] = s.status === 'ok' ? { ...s, as_of: calls.asOf, source: calls.source } : s;
      if (s.status === 'ok') asOf[name] = calls.asOf;
    } catch (e) {
      if (!(e instanceof NotSynced)) throw e;
      sections[name] = { status: 'not_synced', sync: e.sync };
      missing.push(name);
    }
  }
  const m: Meta = baseMeta({
    licence: String(pcEnv.meta?.licence ?? ''), source: 'publicdata area profile: each section from its own domain (section.source)', edition: pcEnv.meta?.edition ?? null,
    // meta.as_of is a date in every envelope (the published meta schema): the postcode directory's; each
    // section's own date is in meta.sections_as_of and in the section (docs/places.md)
    as_of: pcEnv.meta?.as_of ?? null, sections_as_of: asOf, missing, radius_km: radius, months,
    note: [
      'Each section is computed from the synced open data of its own domain (docs/places.md says how, and what is approximate); source lists the request paths behind each figure.',
      ...(pcEnv.meta?.note ? [String(pcEnv.meta.note)] : []),
    ].join(' '),
  } as Record<string, unknown>);
  return { data: { postcode: pc, sections }, meta: m };
};
