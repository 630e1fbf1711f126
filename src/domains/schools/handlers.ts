/**
 * Local handlers of /v1/schools over the mirror's schools.duckdb (sync/index.ts): search, detail and
 * inspection statistics. Records: record.ts. meta: provenance (licence, source, as_of = the management
 * information's "as at" date), `register_as_of` (the GIAS file's date), `note` (why an overall effectiveness
 * is null), and `warning`: Ofsted's display warning (an outcome is never to be shown without its date).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { pagination } from '../../contract/envelope.js';
import { ApiError } from '../../contract/errors.js';
import type { Handler, Meta } from '../../contract/types.js';
import { pointOf } from '../../contract/point.js';
import { openDataset, provenanceMeta, query, queryOne, Where, type Param } from '../../mirror/db.js';
import { radiusSearch } from '../../mirror/geo.js';
import { SCHOOLS_INFO } from './datasets.js';
import { SCHOOLS_POINT, TEXT_FILTERS } from './routes.js';
import { overallNote, overallSlug, safeguardingSlug, schoolDetail, schoolItem } from './record.js';

const DATASET = SCHOOLS_INFO;

export const DISPLAY_WARNING =
  'Show every inspection outcome with its inspection date: Ofsted warns that displaying an invalid or inaccurate rating ' +
  'may constitute a criminal offence. Outcomes are those of the synced monthly management information (meta.as_of).';
export const LIST_NOTE =
  'overall_effectiveness is given only for graded inspections that judged it (before September 2024); it is null for ' +
  'report-card inspections (from 10 November 2025), ungraded inspections, and graded inspections without an overall judgement.';

const metaCache = new WeakMap<DuckDBConnection, Promise<Record<string, unknown>>>();
function facts(conn: DuckDBConnection): Promise<Record<string, unknown>> {
  let p = metaCache.get(conn);
  if (!p) {
    p = query<{ source: string; d: string | null }>(conn, "SELECT source, strftime(published, '%Y-%m-%d') AS d FROM sources").then((rows) => ({
      register_as_of: rows.find((r) => r.source === 'gias')?.d ?? null,
      inspections_as_of: rows.find((r) => r.source === 'mi')?.d ?? null,
      warning: DISPLAY_WARNING,
    }));
    metaCache.set(conn, p);
  }
  return p;
}

async function schoolsMeta(conn: DuckDBConnection, extra: Record<string, unknown> = {}): Promise<Meta> {
  const f = await facts(conn);
  const m = await provenanceMeta(DATASET, conn, { ...f, ...extra });
  // as_of is the management information's "as at" date. A file loaded with --from under another name states
  // none: then as_of is null (the sync date would pass for the outcomes' date) and the warning says why.
  if (typeof f.inspections_as_of === 'string') m.as_of = f.inspections_as_of;
  else {
    m.as_of = null;
    m.warning = `${DISPLAY_WARNING} The management information's date is not known (its file was loaded under a name that does not state it).`;
  }
  return m;
}

const FROM = 'schools s LEFT JOIN inspections i ON i.urn = s.urn';

/** The text filters' trimmed length (routes.ts TEXT_FILTERS), checked before the mirror is opened. */
function textFilters(q: Record<string, unknown>): void {
  for (const name of TEXT_FILTERS) {
    const v = q[name];
    if (typeof v === 'string' && v.trim().length < 2) {
      throw new ApiError(400, 'invalid_parameter', `Invalid parameter '${name}': '${v}'; give at least 2 characters besides spaces.`);
    }
  }
}

/** Filters shared by search and statistics. */
function areaFilters(q: Record<string, unknown>, where: Where): void {
  if (q.local_authority !== undefined) {
    const la = String(q.local_authority).trim();
    where.add('(s.la_code = ? OR upper(s.la_gss) = upper(?) OR contains(lower(s.la_name), lower(?)))', la, la, la);
  }
  if (q.phase !== undefined) where.add('s.phase = ?', String(q.phase));
}

/**
 * `postcode`: without a space, a prefix of the postcode with its spaces taken out ('LS2' matches LS2 and
 * LS20-LS29, 'LS29E' LS2 9EX); a space after the first characters ends the outward code ('LS2 ', 'LS2 9'):
 * the outward code must then be exactly that, and what follows is a prefix of the inward code. The outward
 * code of a stored postcode is all but its last three characters (the inward code is always a digit and two
 * letters), so a register postcode written without its space is read the same.
 */
export function postcodeFilter(raw: string, where: Where): void {
  const m = /^(\S+)\s+(.*)$/.exec(raw.trimStart().toUpperCase());
  if (!m) {
    where.add('starts_with(s.postcode_key, ?)', raw.replace(/\s+/g, '').toUpperCase());
    return;
  }
  where.add('(length(s.postcode_key) > 3 AND left(s.postcode_key, length(s.postcode_key) - 3) = ? AND starts_with(right(s.postcode_key, 3), ?))', m[1]!, m[2]!.replace(/\s+/g, ''));
}

export const search: Handler = async (req, ctx) => {
  const q = req.query;
  textFilters(q);
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const where = new Where();
  areaFilters(q, where);
  if (q.name !== undefined) where.add('contains(lower(s.name), lower(?))', String(q.name).trim());
  if (q.postcode !== undefined) postcodeFilter(String(q.postcode), where);
  if (q.type !== undefined) where.add('(s.type_code = ? OR contains(lower(s.type_name), lower(?)))', String(q.type).trim(), String(q.type).trim());
  if (q.status !== undefined && q.status !== 'all') where.add('s.status = ?', String(q.status));
  const page = Number(q.page ?? 1);
  const perPage = Number(q.per_page ?? 25);
  const offset = (page - 1) * perPage;
  let select = `SELECT s.*, i.* EXCLUDE (urn) FROM ${FROM} ${where.sql}`;
  let params: Param[] = [...where.params];
  let order = 's.name, s.urn';
  const point = pointOf(q, SCHOOLS_POINT);
  if (point) {
    // the shared radius search (src/mirror/geo.ts): box, then the haversine distance; nearest first
    const near = radiusSearch(point, { lat: 's.latitude', lng: 's.longitude' });
    near.within(where);
    select = `SELECT s.*, i.* EXCLUDE (urn), ${near.select} FROM ${FROM} ${where.sql}`;
    params = [...near.selectParams, ...where.params];
    order = near.orderBy('s.urn');
  }
  const total = (await queryOne<{ n: number }>(conn, `SELECT count(*) AS n FROM (${select})`, params))?.n ?? 0;
  const rows = total > offset ? await query(conn, `${select} ORDER BY ${order} LIMIT ? OFFSET ?`, [...params, perPage, offset]) : [];
  return { data: rows.map(schoolItem), meta: await schoolsMeta(conn, { note: LIST_NOTE }), pagination: pagination(total, page, perPage) };
};

export const detail: Handler = async (req, ctx) => {
  const urn = Number(req.params.urn);
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const row = await queryOne(conn, `SELECT s.*, i.* EXCLUDE (urn) FROM ${FROM} WHERE s.urn = ?`, [urn]);
  if (!row) throw new ApiError(404, 'not_found', `No school with URN ${urn} in the GIAS register (meta of any /v1/schools answer gives its date).`);
  const note = overallNote(row);
  return { data: schoolDetail(row), meta: await schoolsMeta(conn, note ? { note } : {}) };
};

const FRAMEWORKS = ['report_card', 'graded', 'ungraded'] as const;

export const statistics: Handler = async (req, ctx) => {
  const q = req.query;
  textFilters(q);
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const where = new Where().add("s.status = 'open'");
  areaFilters(q, where);
  if (q.region !== undefined) where.add('(upper(s.region_code) = upper(?) OR lower(s.region_name) = lower(?))', String(q.region).trim(), String(q.region).trim());
  const counts = (await queryOne<Record<string, number>>(
    conn,
    `SELECT count(*) AS school_count, count(i.latest_framework) AS inspected_count,
       ${FRAMEWORKS.map((f) => `count(*) FILTER (WHERE i.latest_framework = '${f}') AS ${f}`).join(', ')}
     FROM ${FROM} ${where.sql}`,
    where.params,
  ))!;
  const overall: Record<string, number> = { outstanding: 0, good: 0, requires_improvement: 0, inadequate: 0, not_judged: 0 };
  for (const r of await query<{ v: string | null; n: number }>(
    conn, `SELECT i.g_overall AS v, count(*) AS n FROM ${FROM} ${where.sql} AND i.latest_framework = 'graded' GROUP BY ALL`, where.params,
  )) {
    const slug = overallSlug(r.v) ?? 'not_judged';
    overall[slug] = (overall[slug] ?? 0) + r.n;
  }
  const areas = await query<{ area: string; grade: string; n: number }>(
    conn,
    `SELECT replace(area, 'rc_', '') AS area, grade, count(*) AS n FROM (
       UNPIVOT (SELECT i.rc_safeguarding, i.rc_inclusion, i.rc_curriculum_and_teaching, i.rc_achievement, i.rc_attendance_and_behaviour,
                       i.rc_personal_development_and_wellbeing, i.rc_early_years, i.rc_post_16, i.rc_leadership_and_governance
                FROM ${FROM} ${where.sql} AND i.latest_framework = 'report_card')
       ON COLUMNS(*) INTO NAME area VALUE grade)
     GROUP BY ALL ORDER BY area, grade`,
    where.params,
  );
  const reportCard: Record<string, Record<string, number>> = {};
  // safeguarding as the spec's slug (met / not_met), as the detail answer gives it; other grades as published
  for (const a of areas) {
    const grade = a.area === 'safeguarding' ? safeguardingSlug(a.grade) : a.grade;
    const byGrade = (reportCard[a.area] ??= {});
    byGrade[grade] = (byGrade[grade] ?? 0) + a.n;
  }
  const m = await schoolsMeta(conn, {
    note: 'Open schools only; each school counts once, under the framework of its latest inspection. overall_effectiveness counts ' +
      "schools whose latest inspection is graded ('not_judged': no overall judgement, e.g. from September 2024); report_card counts " +
      'grades as published per evaluation area.',
  });
  return {
    data: {
      school_count: counts.school_count,
      inspected_count: counts.inspected_count,
      by_framework: Object.fromEntries(FRAMEWORKS.map((f) => [f, counts[f]])),
      overall_effectiveness: overall,
      report_card: reportCard,
      as_of: typeof m.as_of === 'string' ? m.as_of : null,
    },
    meta: m,
  };
};
