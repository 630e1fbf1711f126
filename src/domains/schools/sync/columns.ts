/**
 * The two upstream files' columns and how each maps onto the mirror's tables (docs/schools.md has the same
 * maps as tables). A file is recognised by its header, never by its name: GIAS "all establishment data" has
 * `URN`, `EstablishmentName` and `Easting`; Ofsted's management information has `URN`, `School name` and
 * `Ofsted phase`, in one of two layouts:
 *  - `report_card` (files from the renewed framework, inspections from 10 November 2025; real file of
 *    28 February 2026): `Inspection number of latest full inspection`, the nine evaluation areas, the old
 *    judgements as `Latest OEIF …`, the ungraded inspection columns;
 *  - `graded` (files up to 2025 under the education inspection framework): `Inspection number of latest
 *    graded inspection`, `Overall effectiveness`, …, `Previous …` of the graded inspection before.
 * Header names are compared after normaliseHeader (case, brackets, `?`, spaces and hyphens), so the
 * double space of `Latest OEIF  safeguarding is effective?` matches too.
 */

/** A header name compared without case, brackets, `?`, and with spaces and hyphens as `_` (a BOM dropped). */
export function normaliseHeader(name: string): string {
  return name.replace(/^\uFEFF/, '').trim().toLowerCase().replace(/[()?]/g, '').replace(/[\s-]+/g, '_');
}

export type SourceKind = 'gias' | 'mi';
export type MiLayout = 'report_card' | 'graded';
export type Kind = 'text' | 'int' | 'date_dash' | 'date_slash';

export interface Col {
  /** Mirror column. */
  column: string;
  kind: Kind;
  /** The upstream header. */
  header: string;
}

const col = (column: string, kind: Kind, header: string): Col => ({ column, kind, header });

/** GIAS "all establishment data" (135 columns): the ones kept, as table `schools` (raw codes; slugs added in SQL). */
export const GIAS_COLUMNS: readonly Col[] = [
  col('urn', 'int', 'URN'),
  col('la_code', 'text', 'LA (code)'),
  col('la_name', 'text', 'LA (name)'),
  col('establishment_number', 'text', 'EstablishmentNumber'),
  col('name', 'text', 'EstablishmentName'),
  col('type_code', 'text', 'TypeOfEstablishment (code)'),
  col('type_name', 'text', 'TypeOfEstablishment (name)'),
  col('type_group', 'text', 'EstablishmentTypeGroup (name)'),
  col('status_code', 'text', 'EstablishmentStatus (code)'),
  col('status_name', 'text', 'EstablishmentStatus (name)'),
  col('open_date', 'date_dash', 'OpenDate'),
  col('close_date', 'date_dash', 'CloseDate'),
  col('phase_code', 'text', 'PhaseOfEducation (code)'),
  col('phase_name', 'text', 'PhaseOfEducation (name)'),
  col('age_low', 'int', 'StatutoryLowAge'),
  col('age_high', 'int', 'StatutoryHighAge'),
  col('gender', 'text', 'Gender (name)'),
  col('religious_character', 'text', 'ReligiousCharacter (name)'),
  col('admissions_policy', 'text', 'AdmissionsPolicy (name)'),
  col('capacity', 'int', 'SchoolCapacity'),
  col('pupils', 'int', 'NumberOfPupils'),
  col('street', 'text', 'Street'),
  col('locality', 'text', 'Locality'),
  col('address3', 'text', 'Address3'),
  col('town', 'text', 'Town'),
  col('county', 'text', 'County (name)'),
  col('postcode', 'text', 'Postcode'),
  col('website', 'text', 'SchoolWebsite'),
  col('region_code', 'text', 'GOR (code)'),
  col('region_name', 'text', 'GOR (name)'),
  col('la_gss', 'text', 'GSSLACode (name)'),
  // the register's statistical and electoral areas (issue 37): GSS codes as GIAS publishes them
  col('lsoa_code', 'text', 'LSOA (code)'),
  col('lsoa_name', 'text', 'LSOA (name)'),
  col('ward_code', 'text', 'AdministrativeWard (code)'),
  col('ward_name', 'text', 'AdministrativeWard (name)'),
  col('easting', 'int', 'Easting'),
  col('northing', 'int', 'Northing'),
  col('uprn', 'text', 'UPRN'),
  col('last_changed', 'date_dash', 'LastChangedDate'),
];

/** Report-card evaluation areas: mirror column suffix and the MI header (data/schools/reference.json has the same list). */
export const RC_AREAS: ReadonlyArray<readonly [string, string]> = [
  ['safeguarding', 'Safeguarding standards'],
  ['inclusion', 'Inclusion'],
  ['curriculum_and_teaching', 'Curriculum and teaching'],
  ['achievement', 'Achievement'],
  ['attendance_and_behaviour', 'Attendance and behaviour'],
  ['personal_development_and_wellbeing', 'Personal development and wellbeing'],
  ['early_years', 'Early years (where applicable)'],
  ['post_16', 'Post-16 provision (where applicable)'],
  ['leadership_and_governance', 'Leadership and governance'],
];

/** Graded judgements: mirror column suffix, then the header in the graded layout and after `Latest OEIF ` in the report-card layout. */
const GRADED: ReadonlyArray<readonly [string, string, string]> = [
  ['overall', 'Overall effectiveness', 'overall effectiveness'],
  ['quality_of_education', 'Quality of education', 'quality of education'],
  ['behaviour_and_attitudes', 'Behaviour and attitudes', 'behaviour and attitudes'],
  ['personal_development', 'Personal development', 'personal development'],
  ['leadership_and_management', 'Effectiveness of leadership and management', 'effectiveness of leadership and management'],
  ['safeguarding', 'Safeguarding is effective?', ' safeguarding is effective?'],
  ['early_years', 'Early years provision (where applicable)', 'early years provision (where applicable)'],
  ['sixth_form', 'Sixth form provision (where applicable)', 'sixth form provision (where applicable)'],
];

const COMMON: readonly Col[] = [
  col('urn', 'int', 'URN'),
  col('web_link', 'text', 'Web Link (opens in new window)'),
  col('mi_school_name', 'text', 'School name'),
  col('ofsted_phase', 'text', 'Ofsted phase'),
  col('ofsted_region', 'text', 'Ofsted region'),
  col('region', 'text', 'Region'),
  col('mi_local_authority', 'text', 'Local authority'),
  col('mi_postcode', 'text', 'Postcode'),
  col('u_number', 'text', 'Latest ungraded inspection number'),
  col('u_start', 'date_slash', 'Date of latest ungraded inspection'),
  col('u_published', 'date_slash', 'Ungraded inspection publication date'),
  col('u_outcome', 'text', 'Ungraded inspection overall outcome'),
];

const REPORT_CARD: readonly Col[] = [
  ...COMMON,
  col('rc_number', 'text', 'Inspection number of latest full inspection'),
  col('rc_type', 'text', 'Inspection type'),
  col('rc_start', 'date_slash', 'Inspection start date'),
  col('rc_published', 'date_slash', 'Publication date'),
  col('rc_concern', 'text', 'Category of concern'),
  ...RC_AREAS.map(([k, h]) => col(`rc_${k}`, 'text', h)),
  col('g_number', 'text', 'Inspection number of latest OEIF graded inspection'),
  col('g_type', 'text', 'Inspection type of latest OEIF graded inspection'),
  col('g_start', 'date_slash', 'Inspection start date of latest OEIF graded inspection'),
  col('g_published', 'date_slash', 'Publication date of latest OEIF graded inspection'),
  col('g_concern', 'text', 'Latest OEIF category of concern'),
  ...GRADED.map(([k, , h]) => col(`g_${k}`, 'text', `Latest OEIF ${h}`)),
];

const GRADED_LAYOUT: readonly Col[] = [
  ...COMMON.filter((c) => c.column !== 'u_number'),
  col('u_number', 'text', 'Latest ungraded inspection number since last graded inspection'),
  col('g_number', 'text', 'Inspection number of latest graded inspection'),
  col('g_type', 'text', 'Inspection type'),
  col('g_start', 'date_slash', 'Inspection start date'),
  col('g_published', 'date_slash', 'Publication date'),
  col('g_concern', 'text', 'Category of concern'),
  ...GRADED.map(([k, h]) => col(`g_${k}`, 'text', h)),
  col('p_number', 'text', 'Previous graded inspection number'),
  col('p_start', 'date_slash', 'Previous inspection start date'),
  col('p_published', 'date_slash', 'Previous publication date'),
  col('p_concern', 'text', 'Previous category of concern'),
  ...GRADED.map(([k, h]) =>
    col(`p_${k}`, 'text', k === 'overall' ? 'Previous graded inspection overall effectiveness' : `Previous ${h.charAt(0).toLowerCase()}${h.slice(1)}`)),
];

export const MI_COLUMNS: Readonly<Record<MiLayout, readonly Col[]>> = { report_card: REPORT_CARD, graded: GRADED_LAYOUT };

/** Every column of table `inspections`, in order (a layout lacking one loads NULL). */
export const INSPECTION_COLUMNS: readonly Col[] = (() => {
  const seen = new Map<string, Col>();
  for (const c of [...REPORT_CARD, ...GRADED_LAYOUT]) if (!seen.has(c.column)) seen.set(c.column, c);
  return [...seen.values()];
})();

/** What a file is, from its header; undefined when neither. */
export function recognise(header: readonly string[]): { kind: 'gias' } | { kind: 'mi'; layout: MiLayout } | undefined {
  const h = new Set(header.map(normaliseHeader));
  const has = (name: string) => h.has(normaliseHeader(name));
  if (has('URN') && has('EstablishmentName') && has('Easting')) return { kind: 'gias' };
  if (has('URN') && has('School name') && has('Ofsted phase')) {
    if (has('Inspection number of latest full inspection')) return { kind: 'mi', layout: 'report_card' };
    if (has('Inspection number of latest graded inspection')) return { kind: 'mi', layout: 'graded' };
  }
  return undefined;
}
