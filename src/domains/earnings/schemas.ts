/**
 * Response schemas of the earnings routes, transcribed from 4-further-domains.md "Earnings" (the Earnings
 * record, the four routes' `data`). The document's common rules: `meta` carries `licence`, `source`,
 * `source_url` and provenance `as_of`; values ONS suppressed are null and named in `suppressed`; "a
 * response may carry more fields than listed": those publicdata adds are declared with ext(). A null that
 * is no suppression (a ':' or '-' marker, a blank cell) is not in `suppressed` (docs/earnings.md).
 */
import { anyOf, arr, ext, int, nullable, num, obj, oneOf, record, str, type JsonSchema, type ResponseSchemas } from '../../contract/schema.js';

const DOC = '4-further-domains.md "Earnings"';
const SUPPRESSED = 'null where ONS published no value: suppressed (named in suppressed), another marker (in markers), or a blank cell';
const value = (description = SUPPRESSED): JsonSchema => ({ ...nullable(num()), description });
const PCTS = ['p10', 'p20', 'p25', 'p30', 'p40', 'p60', 'p70', 'p75', 'p80', 'p90'] as const;

const LEVELS = {
  geography: ['country', 'region', 'local_authority'],
  industry: ['section', 'division'],
  occupation: ['major', 'sub_major', 'minor', 'unit'],
} as const;
type Family = keyof typeof LEVELS;
/** A value set the spec closes, with the values publicdata adds beyond it declared as an extension. */
const specOrExt = (spec: readonly string[], extra: readonly string[], why: string): JsonSchema => anyOf(oneOf(spec), ext(oneOf(extra), why));
const level = (family: Family): JsonSchema =>
  family === 'geography'
    ? specOrExt(LEVELS.geography, ['county'], 'the ONS groupings between a region and its districts (data/earnings/code-lists.yaml)')
    : oneOf(LEVELS[family]);
const POPULATION = specOrExt(
  ['all', 'full_time', 'part_time', 'male_full_time', 'female_full_time'],
  ['male', 'female', 'male_part_time', 'female_part_time'],
  'the other sheets of every ASHE table (sex x working pattern)',
);

function earningsRecord(family: Family): JsonSchema {
  return obj({
    year: int(),
    [family]: obj({ code: str(), name: str(), level: level(family) }),
    ...(family === 'geography' ? { basis: oneOf(['residence', 'workplace']) } : {}),
    population: POPULATION,
    measure: oneOf(['annual_gross', 'weekly_gross', 'hourly_excluding_overtime']),
    jobs_thousands: value(),
    median: value(),
    mean: value(),
    percentiles: obj(Object.fromEntries(PCTS.map((p) => [p, value()]))),
    median_annual_change_percent: value('null where ONS publishes none or suppressed it'),
    mean_annual_change_percent: ext(nullable(num()), "ONS's annual change of the mean, percent (null where none or suppressed)"),
    status: oneOf(['provisional', 'revised']),
    suppressed: arr(str('a field name, e.g. percentiles.p90')),
    markers: ext(record(str()), "field name -> the marker ONS printed in place of (or beside) the value (e.g. 'x', '..')"),
    ...(family === 'occupation' ? { soc_version: ext(nullable(str()), 'the SOC version of the codes (SOC 2020)') } : {}),
  });
}

const percentile = obj({
  amount: num(),
  percentile: { ...nullable({ ...num('10 to 90'), minimum: 10, maximum: 90 }), description: 'null outside the published percentiles' },
  percentile_bound: nullable(oneOf(['below_p10', 'above_p90'])),
  between: ext(arr(obj({ percentile: int(), value: num() })), 'the published percentiles the amount was placed between (median as p50)'),
  reference: { ...anyOf(earningsRecord('geography'), earningsRecord('occupation')), description: 'the record used, with its percentiles' },
});

const META = ['licence', 'source', 'source_url', 'as_of'];
export const responses: ResponseSchemas = {
  'earnings.regions': { data: arr(earningsRecord('geography')), meta: META, source: `${DOC}: Earnings record, GET /v1/earnings/regions` },
  'earnings.industries': { data: arr(earningsRecord('industry')), meta: META, source: `${DOC}: Earnings record, GET /v1/earnings/industries` },
  'earnings.occupations': { data: arr(earningsRecord('occupation')), meta: META, source: `${DOC}: Earnings record, GET /v1/earnings/occupations` },
  'earnings.percentile': { data: percentile, meta: META, source: `${DOC}: POST /v1/earnings/percentile` },
};
