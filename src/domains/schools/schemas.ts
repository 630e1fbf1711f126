/**
 * Response schemas of the schools routes, transcribed from 4-further-domains.md "School inspections" (the
 * School record, its detail, the three routes' `data`). The document's common rules: `meta` carries
 * `licence`, `source`, `source_url` and provenance `as_of`; "a response may carry more fields than
 * listed": those publicdata adds are declared with ext().
 *
 * `meta.as_of` is the management information's "as at" date: null where a file was loaded under a name
 * that does not state its date (the sync date would pass for the outcomes' date), and `meta.warning` says
 * so (docs/schools.md).
 */
import { anyOf, arr, bool, date, ext, int, nullable, num, obj, oneOf, record, str, type JsonSchema, type ResponseSchemas } from '../../contract/schema.js';

const DOC = '4-further-domains.md "School inspections"';
const orNull = (s: JsonSchema, why: string): JsonSchema => ({ ...nullable(s), description: why });

const OVERALL = ['outstanding', 'good', 'requires_improvement', 'inadequate'] as const;
const inspectionFields = {
  inspection_number: str(),
  start_date: date(),
  publication_date: date(),
  framework: oneOf(['report_card', 'graded', 'ungraded']),
  overall_effectiveness: orNull(oneOf(OVERALL), 'null: not judged under the report-card framework, an ungraded inspection, or since September 2024'),
  category_of_concern: nullable(str()),
  outcome: ext(nullable(str()), "an ungraded inspection's outcome as Ofsted published it (e.g. 'School remains Good'); null otherwise"),
};

const RC_AREAS = [
  'inclusion', 'curriculum_and_teaching', 'achievement', 'attendance_and_behaviour', 'personal_development_and_wellbeing',
  'early_years', 'post_16', 'leadership_and_governance',
] as const;
const reportCardGrades = obj({
  safeguarding: nullable(oneOf(['met', 'not_met'])),
  ...Object.fromEntries(RC_AREAS.map((a) => [a, orNull(str(), 'the grade label as published, or null')])),
});
const judgement = nullable(obj({ grade: { ...int('1 to 4'), minimum: 1, maximum: 4 }, label: str() }));
const GRADED_KEYS = ['overall_effectiveness', 'quality_of_education', 'behaviour_and_attitudes', 'personal_development', 'leadership_and_management', 'early_years', 'sixth_form'] as const;
const gradedGrades = obj({ ...Object.fromEntries(GRADED_KEYS.map((k) => [k, judgement])), safeguarding_effective: nullable(bool()) });

const location = orNull(obj({ latitude: num(), longitude: num() }), 'null when the register has no grid reference');
const NOT_IN_REGISTER = 'null for an inspected school the register does not hold (in_register false)';
const schoolFields = {
  urn: int(),
  name: str(),
  phase: orNull(str(), NOT_IN_REGISTER),
  type: orNull(str(), NOT_IN_REGISTER),
  status: orNull(oneOf(['open', 'closed']), NOT_IN_REGISTER),
  local_authority: obj({ code: orNull(str(), NOT_IN_REGISTER), name: str() }),
  postcode: nullable(str()),
  location,
  lsoa: ext(nullable(obj({ code: nullable(str()), name: nullable(str()) })), "the register's Lower Layer Super Output Area (GIAS `LSOA (code)`, `LSOA (name)`); null when the register gives none or does not hold the school"),
  ward: ext(nullable(obj({ code: nullable(str()), name: nullable(str()) })), "the register's administrative (electoral) ward (GIAS `AdministrativeWard (code)`, `AdministrativeWard (name)`); null when the register gives none or does not hold the school"),
  in_register: ext(bool(), "false: the register (GIAS) does not hold this URN; name, postcode and local authority are the management information's own"),
};

const listItem = obj(
  {
    ...schoolFields,
    latest_inspection: nullable(obj(inspectionFields)),
    distance_km: num('with lat/lng: the distance from the point, nearest first'),
  },
  { optional: ['distance_km'] },
);

const detailInspection = obj({
  ...inspectionFields,
  grades: orNull(anyOf(reportCardGrades, gradedGrades), 'report_card: evaluation-area grades; graded: {grade, label} per judgement; null for an ungraded inspection (the spec gives grades for report_card and graded only)'),
});
const detail = obj({
  ...schoolFields,
  address: obj({ lines: arr(str()), town: nullable(str()) }),
  open_date: nullable(date()),
  close_date: orNull(date(), 'null for an open school'),
  age_range: obj({ low: nullable(int()), high: nullable(int()) }),
  gender: nullable(str()),
  religious_character: nullable(str()),
  admissions_policy: nullable(str()),
  pupils: nullable(int()),
  capacity: nullable(int()),
  report_url: orNull(str(), "the management information's link; null for a school it does not list (no URL is made up)"),
  latest_inspection: nullable(detailInspection),
  previous_graded_inspection: orNull(detailInspection, 'the graded inspection before the latest, where published; null otherwise'),
});

const statistics = obj({
  school_count: int(),
  inspected_count: int(),
  by_framework: obj({ report_card: int(), graded: int(), ungraded: int() }),
  overall_effectiveness: obj({
    ...Object.fromEntries(OVERALL.map((o) => [o, int()])),
    not_judged: ext(int(), 'graded latest inspections without an overall judgement (e.g. from September 2024)'),
  }),
  report_card: record(record(int()), 'evaluation area -> grade label as published (safeguarding: met or not_met, as in the detail) -> count'),
  as_of: orNull(date(), "the management information's date; null where the loaded file does not state it"),
});

const META = ['licence', 'source', 'source_url', 'as_of'];
export const responses: ResponseSchemas = {
  'schools.search': { data: arr(listItem), meta: META, source: `${DOC}: School, GET /v1/schools` },
  'schools.detail': { data: detail, meta: META, source: `${DOC}: School detail, GET /v1/schools/{urn}` },
  'schools.inspections.statistics': { data: statistics, meta: META, source: `${DOC}: GET /v1/schools/inspections/statistics` },
};
