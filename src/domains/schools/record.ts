/**
 * Mirror rows (table `schools` joined to `inspections`) as the spec's School records (doc 4 "School
 * inspections"). Pure functions; labels and scales from data/schools/reference.json.
 *  - latest_inspection: the inspection of `latest_framework` (sync: the latest start date), or null when the
 *    management information has none for the URN;
 *  - overall_effectiveness: only a graded inspection's published 1-4 judgement, as a slug; null for report
 *    cards, ungraded inspections, and graded inspections without one ('Not judged' from September 2024, 9, NULL);
 *  - grades (detail): report cards as published (safeguarding as met/not_met), graded as {grade, label}.
 */
import { loadJsonFile } from '../../data.js';

type Row = Record<string, unknown>;

interface Reference {
  graded: { scale: Array<{ grade: number; label: string; slug: string }> };
  report_card: { safeguarding_scale: Array<{ label: string; slug: string }>; areas: Array<{ key: string; column: string }> };
}
const ref = (): Reference => loadJsonFile<Reference>('schools/reference.json');

const str = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** A graded judgement as published ('1'..'4') → {grade, label}; anything else (9, 0, 'Not judged', NULL) → null. */
export function gradedJudgement(v: unknown): { grade: number; label: string } | null {
  const s = str(v);
  const hit = s === null ? undefined : ref().graded.scale.find((g) => String(g.grade) === s.trim());
  return hit ? { grade: hit.grade, label: hit.label } : null;
}

/** The overall effectiveness slug of a graded inspection (outstanding … inadequate) or null. */
export function overallSlug(v: unknown): string | null {
  const s = str(v);
  return (s === null ? undefined : ref().graded.scale.find((g) => String(g.grade) === s.trim()))?.slug ?? null;
}

function yesNo(v: unknown): boolean | null {
  const s = str(v)?.trim().toLowerCase();
  return s === 'yes' ? true : s === 'no' ? false : null;
}

const GRADED_KEYS: ReadonlyArray<readonly [string, string]> = [
  ['overall_effectiveness', 'overall'], ['quality_of_education', 'quality_of_education'], ['behaviour_and_attitudes', 'behaviour_and_attitudes'],
  ['personal_development', 'personal_development'], ['leadership_and_management', 'leadership_and_management'],
  ['early_years', 'early_years'], ['sixth_form', 'sixth_form'],
];

function gradedGrades(r: Row, p: 'g' | 'p'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, col] of GRADED_KEYS) out[key] = gradedJudgement(r[`${p}_${col}`]);
  out.safeguarding_effective = yesNo(r[`${p}_safeguarding`]);
  return out;
}

/** A report card's safeguarding standard as the spec's slug (`Met` -> met, `Not met` -> not_met); another label as published. */
export function safeguardingSlug(v: string): string {
  return ref().report_card.safeguarding_scale.find((s) => s.label.toLowerCase() === v.trim().toLowerCase())?.slug ?? v;
}

function reportCardGrades(r: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of ref().report_card.areas) {
    const v = str(r[`rc_${a.key}`]);
    out[a.key] = a.key === 'safeguarding' && v !== null ? safeguardingSlug(v) : v;
  }
  return out;
}

function graded(r: Row, p: 'g' | 'p', detail: boolean): Row {
  return {
    inspection_number: str(r[`${p}_number`]),
    start_date: str(r[`${p}_start`]),
    publication_date: str(r[`${p}_published`]),
    framework: 'graded',
    overall_effectiveness: overallSlug(r[`${p}_overall`]),
    category_of_concern: str(r[`${p}_concern`]),
    outcome: null,
    ...(detail ? { grades: gradedGrades(r, p) } : {}),
  };
}

/** The latest inspection object (list: without grades), or null. */
export function latestInspection(r: Row, detail: boolean): Row | null {
  switch (r.latest_framework) {
    case 'report_card':
      return {
        inspection_number: str(r.rc_number), start_date: str(r.rc_start), publication_date: str(r.rc_published), framework: 'report_card',
        overall_effectiveness: null, category_of_concern: str(r.rc_concern), outcome: null,
        ...(detail ? { grades: reportCardGrades(r) } : {}),
      };
    case 'graded':
      return graded(r, 'g', detail);
    case 'ungraded':
      return {
        inspection_number: str(r.u_number), start_date: str(r.u_start), publication_date: str(r.u_published), framework: 'ungraded',
        overall_effectiveness: null, category_of_concern: null, outcome: str(r.u_outcome),
        ...(detail ? { grades: null } : {}),
      };
    default:
      return null;
  }
}

/** The graded inspection before the latest one, where published: the `Latest OEIF` one behind a report card or
 *  an ungraded inspection, or the `Previous` one of a graded-layout file. */
export function previousGraded(r: Row): Row | null {
  if (r.latest_framework !== 'graded' && str(r.g_number) !== null) return graded(r, 'g', true);
  if (r.latest_framework === 'graded' && str(r.p_number) !== null) return graded(r, 'p', true);
  return null;
}

/** Why overall_effectiveness is null for this latest inspection (meta.note), or undefined when it is not. */
export function overallNote(r: Row): string | undefined {
  switch (r.latest_framework) {
    case 'report_card':
      return 'Report-card inspections (renewed framework, from 10 November 2025) make no overall effectiveness judgement: the evaluation-area grades are in latest_inspection.grades, as Ofsted published them.';
    case 'graded': {
      if (overallSlug(r.g_overall) !== null) return undefined;
      return str(r.g_overall)?.trim().toLowerCase() === 'not judged'
        ? "Graded inspections from September 2024 make no overall effectiveness judgement (Ofsted publishes 'Not judged'); the sub-judgements are in latest_inspection.grades."
        : 'Ofsted published no overall effectiveness judgement for this inspection.';
    }
    case 'ungraded':
      return 'An ungraded inspection makes no new overall effectiveness judgement (its outcome is in latest_inspection.outcome as published); the last graded inspection, where published, is previous_graded_inspection.';
    default:
      return 'Ofsted\'s management information has no inspection of this school (it lists the latest inspections of open state-funded schools): latest_inspection is null.';
  }
}

/** A register area as `{code, name}`, or null when the register gives neither (or the school is not in it). */
function area(code: unknown, name: unknown): Row | null {
  const c = str(code);
  const n = str(name);
  return c === null && n === null ? null : { code: c, name: n };
}

/** The list item. */
export function schoolItem(r: Row): Row {
  const item: Row = {
    urn: num(r.urn),
    name: str(r.name),
    phase: str(r.phase),
    type: str(r.type_name),
    status: str(r.status),
    local_authority: { code: str(r.la_code), name: str(r.la_name) },
    postcode: str(r.postcode),
    location: r.latitude === null || r.latitude === undefined ? null : { latitude: num(r.latitude), longitude: num(r.longitude) },
    // the register's LSOA and administrative ward (GIAS `LSOA (code)`/`(name)`, `AdministrativeWard (code)`/`(name)`)
    lsoa: area(r.lsoa_code, r.lsoa_name),
    ward: area(r.ward_code, r.ward_name),
    // an inspection whose URN the register does not hold: answered from the management information's own columns
    in_register: r.in_register !== false,
    latest_inspection: latestInspection(r, false),
  };
  if (r.distance_km !== undefined) item.distance_km = num(r.distance_km);
  return item;
}

/** The detail record. */
export function schoolDetail(r: Row): Row {
  const { latest_inspection: _l, ...item } = schoolItem(r);
  const lines = [r.street, r.locality, r.address3].map(str).filter((x): x is string => x !== null);
  return {
    ...item,
    address: { lines, town: str(r.town) },
    open_date: str(r.open_date),
    close_date: str(r.close_date),
    age_range: { low: num(r.age_low), high: num(r.age_high) },
    gender: str(r.gender),
    religious_character: str(r.religious_character),
    admissions_policy: str(r.admissions_policy),
    pupils: num(r.pupils),
    capacity: num(r.capacity),
    // the management information's own link; null for a school it does not list (no URL is made up)
    report_url: str(r.web_link),
    latest_inspection: latestInspection(r, true),
    previous_graded_inspection: previousGraded(r),
  };
}
