/**
 * Response schemas of the energy routes, transcribed from 4-further-domains.md "Energy price cap" (Cap
 * period, Regional rate, the six routes' `data`). The document's common rules: `meta` carries `licence`,
 * `source`, `source_url` and provenance `as_of`; "where the open data cannot give a field, it is null and
 * meta.note says why"; "a response may carry more fields than listed": those publicdata adds are ext().
 */
import { arr, bool, date, ext, nullable, num, obj, oneOf, str, type JsonSchema, type ResponseSchemas } from '../../contract/schema.js';

const DOC = '4-further-domains.md "Energy price cap"';
const orNull = (s: JsonSchema, why: string): JsonSchema => ({ ...nullable(s), description: why });
const PERIOD_ID = { ...str('YYYY-MM, the first month of the period'), pattern: '^\\d{4}-(0[1-9]|1[0-2])$' };
const PAYMENT = oneOf(['direct_debit', 'standard_credit', 'prepayment']);
const METER = oneOf(['single_rate', 'multi_register']);
const FUEL = oneOf(['electricity', 'gas']);
const NO_SOURCE = 'null where no citable source gives one (meta.note)';
const url = (): JsonSchema => orNull(str(), 'null where the value has none');

const region = obj({ code: str('one of the 14 GB electricity regions, or gb_average'), name: str() });

const figures = nullable(
  obj(
    {
      unit_rate: orNull(num('pence per kWh incl. VAT'), NO_SOURCE),
      standing_charge: orNull(num('pence per day incl. VAT'), NO_SOURCE),
      source_url: str(),
      standing_charge_source_url: str('where the standing charge has its own source'),
    },
    { optional: ['standing_charge_source_url'] },
  ),
);
const gbRates = nullable(obj({ electricity: figures, gas: figures }));

const capPeriod = obj({
  period_id: PERIOD_ID,
  start_date: date(),
  end_date: date(),
  typical_consumption: obj(
    {
      electricity_kwh: orNull(num(), NO_SOURCE),
      gas_kwh: orNull(num(), NO_SOURCE),
      electricity_multi_rate_kwh: ext(num(), 'multi-rate (Economy 7) typical electricity, where the period states one (from July 2026)'),
    },
    { optional: ['electricity_multi_rate_kwh'] },
  ),
  applied: ext(oneOf(['price_cap', 'energy_price_guarantee']), 'what set the bills households paid (October 2022 to June 2023: the Energy Price Guarantee)'),
  energy_price_guarantee: ext(
    nullable(obj({ typical_annual_bill: num('pounds'), typical_annual_bill_source_url: str(), gb_average_rates: obj({ electricity: figures, gas: figures }) })),
    "the government's Energy Price Guarantee beside the cap (October 2022 to June 2023), else null",
  ),
  gb_average_rates: ext(gbRates, "the cap's GB-average Direct Debit single-rate figures as published, null where none are shipped"),
  vat_rate: ext(obj({ electricity: num(), gas: num() }), 'VAT of each fuel in the period (0.05; electricity 0 from October 2026 to March 2027)'),
  note: ext(orNull(str(), 'none'), 'what a null figure or a conflicting source means for this period'),
  typical_annual_bill: obj({
    direct_debit: orNull(num('pounds'), NO_SOURCE),
    standard_credit: orNull(num('pounds'), NO_SOURCE),
    prepayment: orNull(num('pounds'), NO_SOURCE),
  }),
  regional_rates: ext(bool(), 'whether regional rates of the period are loaded (the synced levels model)'),
  sources: ext(
    obj({
      dates: str('URL of the period dates, or levels_model'),
      typical_consumption: url(),
      typical_annual_bill: obj({ direct_debit: url(), standard_credit: url(), prepayment: url() }),
      gb_average_rates: url(),
    }),
    'where each value comes from (URLs of the published figures)',
  ),
});

const regionalRate = obj(
  {
    period_id: PERIOD_ID,
    region,
    fuel: FUEL,
    payment_method: PAYMENT,
    meter: METER,
    unit_rate: orNull(num('pence per kWh incl. VAT'), NO_SOURCE),
    standing_charge: orNull(num('pence per day incl. VAT'), NO_SOURCE),
    excluding_vat: obj({ unit_rate: orNull(num(), NO_SOURCE), standing_charge: orNull(num(), NO_SOURCE) }),
    vat_rate: ext(num(), 'VAT of the fuel in the period'),
    tariff: ext(oneOf(['price_cap', 'energy_price_guarantee']), "the cap's level, or the Energy Price Guarantee's rates households paid (October 2022 to June 2023)"),
    origin: ext(oneOf(['published', 'levels_model']), "published: the figure Ofgem published (shipped); levels_model: derived from Ofgem's levels model (synced)"),
    source_url: ext(str(), 'the published figure’s source (published rows only)'),
    standing_charge_source_url: ext(str(), 'the standing charge’s own source, where it differs'),
  },
  { optional: ['source_url', 'standing_charge_source_url'] },
);

const fuelCost = nullable(
  obj({ kwh: num(), unit_rate: num('pence per kWh'), standing_charge: num('pence per day'), energy_cost: num('pounds'), standing_cost: num('pounds'), total: num('pounds') }),
);
const calculation = obj({
  period_id: PERIOD_ID,
  region,
  payment_method: PAYMENT,
  meter: METER,
  electricity: { ...fuelCost, description: 'null when no electricity_kwh is given' },
  gas: { ...fuelCost, description: 'null when no gas_kwh is given' },
  total_annual: num('pounds'),
  monthly: num('pounds'),
});

const META = ['licence', 'source', 'source_url', 'as_of'];
export const responses: ResponseSchemas = {
  'energy.price-cap.periods': { data: arr(capPeriod), meta: META, source: `${DOC}: Cap period, GET /v1/energy/price-cap/periods` },
  'energy.price-cap.periods.current': { data: capPeriod, meta: META, source: `${DOC}: Cap period, GET /v1/energy/price-cap/periods/current` },
  'energy.price-cap.periods.get': { data: capPeriod, meta: META, source: `${DOC}: Cap period, GET /v1/energy/price-cap/periods/{period_id}` },
  'energy.price-cap.rates': { data: arr(regionalRate), meta: META, source: `${DOC}: Regional rate, GET /v1/energy/price-cap/rates` },
  'energy.price-cap.regions': { data: arr(region), meta: META, source: `${DOC}: GET /v1/energy/price-cap/regions` },
  'energy.price-cap.calculate': {
    data: calculation,
    // "every rounding rule stated in meta"
    meta: [...META, 'rounding'],
    source: `${DOC}: POST /v1/energy/price-cap/calculate`,
  },
};
