/**
 * Local handlers of the /v1/energy routes (spec doc 4, "Energy price cap"). Periods and the calculator
 * answer from the shipped data with nothing synced; rates answer the GB average from the shipped data
 * before a sync (meta.note says so) and every region after. Shapes and rules: docs/energy.md.
 */
import { meta as baseMeta, paged } from '../../contract/envelope.js';
import { ApiError } from '../../contract/errors.js';
import type { Handler, HandlerContext, Meta, SuccessEnvelope } from '../../contract/types.js';
import { isDatasetPresent } from '../../mirror/paths.js';
import { BillAnswer, parsed, ROUNDING_RULES, type BillHead } from './calc.js';
import { allRegions, priceCapData, vatOn, type RegionDef, type ShippedFuelRates } from './shipped.js';
import { checkPeriodArgs, complete, DATASET, findRate, loadState, resolvePeriod, shippedOnly, type EnergyState, type PeriodEntry, type RateRow } from './source.js';

const PAYMENT_KEYS = ['direct_debit', 'standard_credit', 'prepayment'] as const;

/** `{code, name}` per region code, built once (frozen: answers share them). */
let regionByCode: Map<string, Readonly<{ code: string; name: string }>> | undefined;
function regionOf(code: string): Readonly<{ code: string; name: string }> {
  regionByCode ??= new Map(allRegions().map((r: RegionDef) => [r.code, Object.freeze({ code: r.code, name: r.name })]));
  return regionByCode.get(code) ?? { code, name: code };
}

function energyMeta(s: EnergyState, extra: Record<string, unknown> = {}): Meta {
  const d = priceCapData();
  return baseMeta({
    source: 'Ofgem',
    source_url: d.meta.levels_page,
    as_of: s.mirror?.asOf ?? d.meta.as_of,
    ...extra,
  });
}

const money = (t: string | null | undefined): number | null => (t === undefined || t === null ? null : Number(t));

function fuelFigures(r: ShippedFuelRates | undefined): Record<string, unknown> | null {
  if (!r) return null;
  return {
    unit_rate: money(r.unit_rate),
    standing_charge: money(r.standing_charge),
    source_url: r.source.url,
    ...(r.standing_charge_source ? { standing_charge_source_url: r.standing_charge_source.url } : {}),
  };
}

/** A cap period as the spec shapes it, with the source of each value (`sources`). */
export function periodRecord(p: PeriodEntry): Record<string, unknown> {
  const sh = p.shipped;
  const bills = Object.fromEntries(PAYMENT_KEYS.map((k) => [k, money(sh?.bills[k]?.pounds)]));
  const billSources = Object.fromEntries(PAYMENT_KEYS.map((k) => [k, sh?.bills[k]?.source.url ?? null]));
  const epg = sh?.energy_price_guarantee;
  return {
    period_id: p.period_id,
    start_date: p.start_date,
    end_date: p.end_date,
    typical_consumption: {
      electricity_kwh: sh?.consumption?.electricity_kwh ?? null,
      gas_kwh: sh?.consumption?.gas_kwh ?? null,
      ...(sh?.consumption?.electricity_multi_rate_kwh !== undefined ? { electricity_multi_rate_kwh: sh.consumption.electricity_multi_rate_kwh } : {}),
    },
    typical_annual_bill: bills,
    applied: sh?.applied ?? 'price_cap',
    energy_price_guarantee: epg
      ? {
          typical_annual_bill: money(epg.typical_bill.pounds),
          typical_annual_bill_source_url: epg.typical_bill.source.url,
          gb_average_rates: { electricity: fuelFigures(epg.rates.electricity), gas: fuelFigures(epg.rates.gas) },
        }
      : null,
    gb_average_rates: sh?.rates ? { electricity: fuelFigures(sh.rates.electricity), gas: fuelFigures(sh.rates.gas) } : null,
    vat_rate: { electricity: Number(vatOn('electricity', p.start_date).rate), gas: Number(vatOn('gas', p.start_date).rate) },
    note: sh?.note ?? null,
    regional_rates: p.synced,
    sources: {
      dates: sh?.dates_source.url ?? 'levels_model',
      typical_consumption: sh?.consumption?.source.url ?? null,
      typical_annual_bill: billSources,
      gb_average_rates: sh?.rates?.electricity.source.url ?? null,
    },
  };
}

/** Why a period's field may be null: the one wording of the list and of a single period (spec doc 4: a null field has a meta.note). */
const NULLS_NOTE =
  'Figures are those Ofgem published (incl. VAT at the rate of the fuel and period, vat_rate); null where no page we cite showed one, never estimated ' +
  "(the 2019 periods carry only the Direct Debit typical bill of Ofgem's data-portal chart; a period's `note` names its null figures; a period known only from the synced levels model carries its rates, not a typical consumption or bill). " +
  'October 2022 to June 2023: the cap level is what the cap would have been; households paid the Energy Price Guarantee (energy_price_guarantee; applied says which).';

function periodsNote(s: EnergyState): string {
  return (
    `${NULLS_NOTE} Every cap period from January 2019 to December 2026 is shipped` +
    (s.mirror ? '; periods from the synced levels model are listed with their rates.' : "; 'publicdata sync energy-price-cap' adds the periods of Ofgem's levels model.")
  );
}

/** Whether a period record has a null typical consumption or typical bill (then its meta.note says why). */
function hasNullField(rec: Record<string, unknown>): boolean {
  const groups = [rec.typical_consumption, rec.typical_annual_bill] as Array<Record<string, unknown>>;
  const rates = rec.gb_average_rates as Record<string, Record<string, unknown> | null> | null;
  const figures = rates ? Object.values(rates).flatMap((f) => (f ? [f.unit_rate, f.standing_charge] : [null])) : [];
  return groups.some((g) => Object.values(g).some((v) => v === null)) || figures.some((v) => v === null);
}

export const periods: Handler = async (req, ctx) => {
  const s = await loadState(ctx);
  const list = [...s.periods].reverse().map(periodRecord);
  return paged(list, req.query.page as number, req.query.per_page as number, energyMeta(s, { note: periodsNote(s) }));
};

export const period: Handler = async (req, ctx) => {
  const id = req.params.period_id as string;
  const s = await loadState(ctx);
  const r = resolvePeriod(s, id, undefined, ctx);
  const data = periodRecord(r.period);
  const notes = [...(r.note ? [r.note] : []), ...(hasNullField(data) || data.energy_price_guarantee ? [NULLS_NOTE] : [])];
  return { data, meta: energyMeta(s, notes.length ? { note: notes.join(' ') } : {}) };
};

export const periodCurrent: Handler = (_req, ctx) => period({ params: { period_id: 'current' }, query: {}, body: undefined }, ctx);

// The region list is shipped reference data: its provenance date is the shipped data's (spec doc 4: meta.as_of).
export const regions: Handler = () => ({
  data: allRegions().map((r) => ({ code: r.code, name: r.name })),
  meta: baseMeta({ source: 'Ofgem', source_url: priceCapData().meta.levels_page, as_of: priceCapData().meta.as_of }),
});

function rateRecord(r: RateRow): Record<string, unknown> {
  return {
    period_id: r.period_id,
    region: regionOf(r.region_code),
    fuel: r.fuel,
    payment_method: r.payment_method,
    meter: r.meter,
    unit_rate: money(r.unit_rate),
    standing_charge: money(r.standing_charge),
    excluding_vat: { unit_rate: money(r.unit_rate_ex_vat), standing_charge: money(r.standing_charge_ex_vat) },
    vat_rate: Number(r.vat_rate),
    tariff: r.tariff,
    origin: r.origin,
    ...(r.source ? { source_url: r.source.url } : {}),
    ...(r.standing_charge_source ? { standing_charge_source_url: r.standing_charge_source.url } : {}),
  };
}

const SHIPPED_RATES_NOTE =
  "The energy-price-cap dataset is not synced: these are the GB-average Direct Debit single-rate figures Ofgem published (shipped data, incl. VAT; excluding_vat derived). Regional rates, other payment methods and Economy 7 need 'publicdata sync energy-price-cap'.";
const SYNCED_RATES_NOTE =
  "Regional rates derived from Ofgem's levels model (synced): standing charge = nil-kWh level / 365, unit rate = (benchmark level - nil level) / that period's benchmark kWh (docs/energy.md). " +
  "gb_average: the Direct Debit single-rate figures Ofgem published (shipped, origin 'published') where both are shipped; otherwise the model's own 'GB average' row (origin 'levels_model').";
const EPG_RATES_NOTE =
  "Energy Price Guarantee period: the price_cap rows are the cap's level (what it would have been); households paid the energy_price_guarantee rows (GB-average Direct Debit; the government's regional guarantee rates are not in the open data we hold).";

export const rates: Handler = async (req, ctx) => {
  const q = req.query;
  checkPeriodArgs(q.date);
  const s = await loadState(ctx);
  const r = resolvePeriod(s, q.period as string | undefined, q.date as string | undefined, ctx);
  const pool = s.epg.has(r.period.period_id) ? [...s.rates, ...s.epg.get(r.period.period_id)!.values()] : s.rates;
  const out = pool.filter(
    (x) =>
      x.period_id === r.period.period_id &&
      (q.region === undefined || x.region_code === q.region) &&
      (q.fuel === undefined || x.fuel === q.fuel) &&
      (q.payment_method === undefined || x.payment_method === q.payment_method) &&
      (q.meter === undefined || x.meter === q.meter),
  );
  const notes = [s.mirror ? SYNCED_RATES_NOTE : SHIPPED_RATES_NOTE];
  if (s.epg.has(r.period.period_id)) notes.push(EPG_RATES_NOTE);
  if (out.some((x) => !complete(x))) notes.push(`A null figure was not shown by any page we cite: ${r.period.shipped?.note ?? 'see the period'}`);
  if (r.note) notes.push(r.note);
  if (out.length === 0) notes.push(`No rates for period ${r.period.period_id} match these filters in the loaded data.`);
  return { data: out.map(rateRecord), meta: energyMeta(s, { note: notes.join(' ') }) };
};

function fuelRates(s: EnergyState, periodId: string, region: string, payment: string, meter: string, fuel: 'electricity' | 'gas'): RateRow | undefined {
  // Gas has no multi-register meters: an Economy 7 home's gas is priced at the single-rate cap.
  const m = fuel === 'gas' ? 'single_rate' : meter;
  // Energy Price Guarantee periods: what households paid (shipped GB-average Direct Debit single-rate only).
  const epg = s.epg.get(periodId);
  if (epg) return region === 'gb_average' && payment === 'direct_debit' && m === 'single_rate' ? epg.get(fuel) : undefined;
  return findRate(s, periodId, region, payment, m, fuel);
}

/** A rate row with both figures, as the calculator's FuelRates. */
type PricedRow = RateRow & { unit_rate: string; standing_charge: string };
const priced = (r: RateRow | undefined): r is PricedRow => r !== undefined && complete(r);

/**
 * Whether the mirror holds the dataset, per handler context, looked at again after a second: a batch
 * (one context for all its lines) stats the file once, not once per line; `serve` sees a new sync soon.
 */
const presence = new WeakMap<HandlerContext, { at: number; present: boolean }>();
function mirrorPresent(ctx: HandlerContext): boolean {
  const now = Date.now();
  const p = presence.get(ctx);
  if (p && now - p.at < 1000) return p.present;
  const present = isDatasetPresent(DATASET, ctx.mirrorDir);
  presence.set(ctx, { at: now, present });
  return present;
}

const metaCache = new WeakMap<EnergyState, Map<string, Meta>>();
/** The calculator's meta for a state and origin (built once: a batch answers 100,000s of lines). */
function calcMeta(s: EnergyState, origin: RateRow['origin'], notes: string[], vat: { electricity: string; gas: string }, tariff: RateRow['tariff']): Meta {
  const key = `${origin}|${vat.electricity}|${vat.gas}|${tariff}${notes.length === 0 ? '' : `|${notes.join('|')}`}`;
  let byKey = metaCache.get(s);
  if (!byKey) metaCache.set(s, (byKey = new Map()));
  let m = byKey.get(key);
  if (!m) {
    // Frozen through: nothing may change a meta its answers share, and a batch serialises it once (src/batch-line.ts).
    m = Object.freeze(
      energyMeta(s, {
        rounding: Object.freeze({ ...ROUNDING_RULES }),
        rates_origin: origin === 'published' ? 'published (shipped GB average)' : 'levels_model (synced)',
        // the VAT each fuel's rates include in this period, and what set the rates (the cap or the guarantee)
        vat_rate: Object.freeze({ electricity: Number(vat.electricity), gas: Number(vat.gas) }),
        tariff,
        ...(notes.length ? { note: notes.join(' ') } : {}),
      }),
    );
    byKey.set(key, m);
  }
  return m;
}

const NO_NOTES: string[] = [];

/** The answer's head for a period, region, payment method and meter: made once, frozen, shared by the answers. */
const heads = new WeakMap<PeriodEntry, Map<string, Map<string, Map<string, BillHead>>>>();
function headOf(p: PeriodEntry, region: string, payment: string, meter: string): BillHead {
  // nested maps on the validated enum strings (their hashes are kept): no key text built per line
  let byRegion = heads.get(p);
  if (!byRegion) heads.set(p, (byRegion = new Map()));
  let byPayment = byRegion.get(region);
  if (!byPayment) byRegion.set(region, (byPayment = new Map()));
  let byMeter = byPayment.get(payment);
  if (!byMeter) byPayment.set(payment, (byMeter = new Map()));
  let h = byMeter.get(meter);
  if (!h) {
    h = Object.freeze({ period_id: p.period_id, region: regionOf(region), payment_method: payment, meter });
    byMeter.set(meter, h);
  }
  return h;
}

function calculateWith(s: EnergyState, b: Record<string, unknown>, ctx: HandlerContext): SuccessEnvelope {
  const r = resolvePeriod(s, b.period as string | undefined, b.date as string | undefined, ctx);
  const pid = r.period.period_id;
  const region = b.region as string;
  const payment = b.payment_method as string;
  const meter = b.meter as string;
  const ekwh = b.electricity_kwh as number | undefined;
  const gkwh = b.gas_kwh as number | undefined;
  const er = ekwh === undefined ? undefined : fuelRates(s, pid, region, payment, meter, 'electricity');
  const gr = gkwh === undefined ? undefined : fuelRates(s, pid, region, payment, meter, 'gas');
  const isEpg = s.epg.has(pid);
  if (isEpg && (region !== 'gb_average' || payment !== 'direct_debit' || (meter !== 'single_rate' && ekwh !== undefined)))
    throw new ApiError(
      404,
      'not_found',
      `Period ${pid} was under the Energy Price Guarantee: households paid the guarantee's rates, of which only the GB-average Direct Debit single-rate figures are in the data we hold ` +
        `(the government's regional guarantee rates are not). Use region gb_average, payment_method direct_debit, meter single_rate.`,
    );
  const missing = (r: RateRow | undefined) => r !== undefined && !complete(r);
  if (missing(er) || missing(gr)) {
    const row = (missing(er) ? er : gr)!;
    const what = `${row.fuel} ${row.unit_rate === null ? 'unit rate' : 'standing charge'}`;
    throw new ApiError(
      s.mirror || isEpg ? 404 : 503,
      s.mirror || isEpg ? 'not_found' : 'dataset_not_synced',
      `No ${what} for period ${pid}${isEpg ? " under the Energy Price Guarantee" : ''}: no page we cite showed it, and it is never estimated (${r.period.shipped?.note ?? ''})` +
        (s.mirror || isEpg ? '' : " 'publicdata sync energy-price-cap' loads the levels model, which states it."),
    );
  }
  if ((ekwh !== undefined && !er) || (gkwh !== undefined && !gr)) {
    const what = `${region} ${payment} ${meter} rates for period ${pid}`;
    if (s.mirror) throw new ApiError(404, 'not_found', `No ${what} in the loaded data (neither the synced levels model nor the shipped figures hold them).`);
    throw new ApiError(
      503,
      'dataset_not_synced',
      `No ${what} without a sync: the shipped data holds only the GB-average Direct Debit single-rate figures Ofgem published` +
        `${r.period.shipped?.rates ? '' : ' (and none for this period)'}. Run 'publicdata sync energy-price-cap'.`,
    );
  }
  const ev = ekwh === undefined || !er ? undefined : vatOn('electricity', r.period.start_date);
  const zeroVat = ev !== undefined && ev.rate === '0';
  const notes: string[] = r.note === undefined && meter !== 'multi_register' && !isEpg && !zeroVat ? NO_NOTES : [];
  if (r.note) notes.push(r.note);
  if (meter === 'multi_register' && gkwh !== undefined) notes.push('Gas has no multi-register meters: gas is priced at the single-rate cap.');
  if (meter === 'multi_register' && ekwh !== undefined)
    notes.push("The Economy 7 unit rate is the levels model's single blended rate at its assumed day/night split; actual day and night rates differ.");
  if (isEpg) {
    const capBill = r.period.shipped?.bills.direct_debit?.pounds;
    notes.push(
      `Period ${pid} was under the Energy Price Guarantee: priced at the guarantee's rates households paid (typical GBP ${r.period.shipped?.energy_price_guarantee?.typical_bill.pounds}), ` +
        `not at the cap's level (typical GBP ${capBill}, what the cap would have been).`,
    );
  }
  if (zeroVat) notes.push(`No VAT on domestic electricity from ${ev.from} to ${ev.to}: the electricity rate includes none (${ev.source.url}).`);
  return {
    // The answer's fields in the route's order; it writes its own JSON for a batch (calc.ts BillAnswer).
    data: new BillAnswer(headOf(r.period, region, payment, meter), ekwh, priced(er) ? parsed(er) : undefined, gkwh, priced(gr) ? parsed(gr) : undefined),
    // One meta object per state and origin, shared by the answers (nothing downstream writes to meta).
    meta: calcMeta(
      s,
      (er ?? gr)!.origin,
      notes,
      { electricity: vatOn('electricity', r.period.start_date).rate, gas: vatOn('gas', r.period.start_date).rate },
      isEpg ? 'energy_price_guarantee' : 'price_cap',
    ),
  };
}

/** Synchronous with nothing synced (the shipped data alone, no DuckDB): a batch runs no promise per line. */
export const calculate: Handler = (req, ctx: HandlerContext) => {
  const b = req.body as Record<string, unknown>;
  checkPeriodArgs(b.date);
  if (!mirrorPresent(ctx)) return calculateWith(shippedOnly(), b, ctx);
  return loadState(ctx).then((s) => calculateWith(s, b, ctx));
};
