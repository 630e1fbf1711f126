/**
 * `publicdata sync road-safety`: the Department for Transport's STATS19 road safety data (personal-injury
 * road collisions reported to the police in Great Britain) into road_safety.duckdb, tables `collisions`,
 * `vehicles`, `casualties` (one row per collision / vehicle / casualty, sorted by collision_index; the
 * coded fields the API labels have a `<field>_label` column beside them), `code_labels` (the shipped code
 * list, data/vehicles/stats19-code-list-2024.csv) and `coverage` (years and dates held).
 *
 * Upstream: https://data.dft.gov.uk/road-accidents-safety-data/dft-road-casualty-statistics-{collision,vehicle,casualty}-YYYY.csv,
 * one file of each kind per year. `--years` picks the years (default 2021 to the latest final year, the
 * live service's coverage: final data for a year are published at the end of September of the next year,
 * so from October the previous year is final). `--from` takes files or URLs named as the publisher names
 * them (a `-last-5-years` or `-1979-latest-published-year` file too, filtered to `--years` when given), or
 * a folder or URL prefix holding those names.
 *
 * Layouts: the 2024 republication renamed `accident_index/_year/_reference/_severity` to
 * `collision_index/_year/_ref_no/_severity` and moved the 2011-specification codings of five fields to
 * `*_historic` columns (the new `junction_detail`, `vehicle_manoeuvre`, ... use the 2024 codes). A file is in
 * the old layout when its header has no `collision_index`; its `junction_detail` etc. then load into the
 * `*_historic` columns (header alias map below). Columns absent from a file load as NULL; the older
 * capitalised headers (`Accident_Index`, `1st_Road_Class`, `Local_Authority_(District)`) map too.
 * Values: every column is read as text; `-1` (unknown in coded fields) is kept as published; blank and
 * `NULL` cells are NULL; dates dd/mm/yyyy; times HH:MM → 'HH:MM:SS'; collision indexes and references stay
 * strings (they hold letters and leading zeros). A row without a collision index, year or (collisions) a
 * valid date, or with a non-blank coded value that is not an integer, is rejected; one with a line break in
 * any field (a quote never closed) is rejected and refuses its file (header-alias.ts `storeFileRejects`).
 */
import { basename, join } from 'node:path';
import { DATA_DIR } from '../../../data.js';
import { queryOne } from '../../../mirror/db.js';
import { gridCellSql } from '../../../mirror/geo.js';
import { catalogFields, csvHeader, quoteIdent } from '../../../../sync/common.js';
import {
  type ColumnKind, type ColumnSpec, mapHeader, noBreakInRow, normaliseHeader, parsesExpr, readCsvAllText, sqlString, sqlType, storeFileRejects, typedExpr,
} from './header-alias.js';
import type { NoBreakFormat } from '../../../../sync/open-quote.js';
import type { DatasetModule, DiscoverContext, LoadContext, LoadResult, UpstreamFile } from '../../../../sync/types.js';
import { COLLISION_LIST_COLUMNS, ROAD_SAFETY_INFO, ROAD_SAFETY_YEARS } from '../traffic-datasets.js';

export type Stats19Kind = 'collision' | 'vehicle' | 'casualty';
export const STATS19_KINDS: readonly Stats19Kind[] = ['collision', 'vehicle', 'casualty'];
const TABLE: Record<Stats19Kind, string> = { collision: 'collisions', vehicle: 'vehicles', casualty: 'casualties' };

/** The first year of the live service's coverage (spec: "final annual files from 2021 onward"). */
export const FIRST_DEFAULT_YEAR = 2021;

/** The publisher's file names: per year, last five years, or the whole history. */
export const STATS19_NAME_RE = /^dft-road-casualty-statistics-(collision|vehicle|casualty)-(\d{4}|last-5-years|1979-latest-published-year)\b.*\.csv$/i;

const c = (column: string, kind: ColumnKind, extra: Partial<ColumnSpec> = {}): ColumnSpec => ({ column, kind, ...extra });
const ints = (...names: string[]): ColumnSpec[] => names.map((n) => c(n, 'int'));
const KEYS: ColumnSpec[] = [c('collision_index', 'text', { required: true }), c('collision_year', 'int'), c('collision_ref_no', 'text')];

/** Columns of the 2024 republished layout, in file order (44 / 32 / 23). */
export const STATS19_COLUMNS: Record<Stats19Kind, readonly ColumnSpec[]> = {
  collision: [
    ...KEYS,
    ...ints('location_easting_osgr', 'location_northing_osgr'),
    c('longitude', 'text'),
    c('latitude', 'text'),
    ...ints('police_force', 'collision_severity', 'number_of_vehicles', 'number_of_casualties'),
    c('collision_date', 'date', { header: 'date', required: true }),
    c('day_of_week', 'int'),
    c('collision_time', 'time', { header: 'time' }),
    c('local_authority_district', 'int'),
    c('local_authority_ons_district', 'text'),
    c('local_authority_highway', 'text'),
    c('local_authority_highway_current', 'text'),
    ...ints(
      'first_road_class', 'first_road_number', 'road_type', 'speed_limit', 'junction_detail_historic', 'junction_detail',
      'junction_control', 'second_road_class', 'second_road_number', 'pedestrian_crossing_human_control_historic',
      'pedestrian_crossing_physical_facilities_historic', 'pedestrian_crossing', 'light_conditions', 'weather_conditions',
      'road_surface_conditions', 'special_conditions_at_site', 'carriageway_hazards_historic', 'carriageway_hazards',
      'urban_or_rural_area', 'did_police_officer_attend_scene_of_accident', 'trunk_road_flag',
    ),
    c('lsoa_of_accident_location', 'text'),
    ...ints('enhanced_severity_collision', 'collision_injury_based'),
    c('collision_adjusted_severity_serious', 'double'),
    c('collision_adjusted_severity_slight', 'double'),
  ],
  vehicle: [
    ...KEYS,
    ...ints(
      'vehicle_reference', 'vehicle_type', 'towing_and_articulation', 'vehicle_manoeuvre_historic', 'vehicle_manoeuvre',
      'vehicle_direction_from', 'vehicle_direction_to', 'vehicle_location_restricted_lane_historic', 'vehicle_location_restricted_lane',
      'junction_location', 'skidding_and_overturning', 'hit_object_in_carriageway', 'vehicle_leaving_carriageway',
      'hit_object_off_carriageway', 'first_point_of_impact', 'vehicle_left_hand_drive', 'journey_purpose_of_driver_historic',
      'journey_purpose_of_driver', 'sex_of_driver', 'age_of_driver', 'age_band_of_driver', 'engine_capacity_cc', 'propulsion_code',
      'age_of_vehicle',
    ),
    c('generic_make_model', 'text'),
    c('driver_imd_decile', 'int'),
    c('lsoa_of_driver', 'text'),
    ...ints('escooter_flag', 'driver_distance_banding'),
  ],
  casualty: [
    ...KEYS,
    ...ints(
      'vehicle_reference', 'casualty_reference', 'casualty_class', 'sex_of_casualty', 'age_of_casualty', 'age_band_of_casualty',
      'casualty_severity', 'pedestrian_location', 'pedestrian_movement', 'car_passenger', 'bus_or_coach_passenger',
      'pedestrian_road_maintenance_worker', 'casualty_type', 'casualty_imd_decile',
    ),
    c('lsoa_of_casualty', 'text'),
    ...ints('enhanced_casualty_severity', 'casualty_injury_based'),
    c('casualty_adjusted_severity_serious', 'double'),
    c('casualty_adjusted_severity_slight', 'double'),
    c('casualty_distance_banding', 'int'),
  ],
};

/** Coded fields whose label (from the code list) is stored beside them: the labels the API returns. */
export const LABELLED: Record<Stats19Kind, readonly string[]> = {
  collision: ['collision_severity', 'road_type', 'urban_or_rural_area'],
  vehicle: ['vehicle_type', 'sex_of_driver', 'age_band_of_driver'],
  casualty: ['casualty_class', 'sex_of_casualty', 'age_band_of_casualty', 'casualty_severity', 'casualty_type'],
};

/** Header aliases of every layout (normalised names, see normaliseHeader). */
const ALIASES: Record<string, string> = {
  accident_index: 'collision_index',
  accident_year: 'collision_year',
  accident_reference: 'collision_ref_no',
  accident_ref_no: 'collision_ref_no',
  collision_reference: 'collision_ref_no',
  accident_severity: 'collision_severity',
  '1st_road_class': 'first_road_class',
  '1st_road_number': 'first_road_number',
  '2nd_road_class': 'second_road_class',
  '2nd_road_number': 'second_road_number',
  '1st_point_of_impact': 'first_point_of_impact',
  was_vehicle_left_hand_drive: 'vehicle_left_hand_drive',
  did_police_officer_attend_scene_of_collision: 'did_police_officer_attend_scene_of_accident',
  lsoa_of_collision_location: 'lsoa_of_accident_location',
  collision_adjusted_serious: 'collision_adjusted_severity_serious',
  collision_adjusted_slight: 'collision_adjusted_severity_slight',
  casualty_adjusted_serious: 'casualty_adjusted_severity_serious',
  casualty_adjusted_slight: 'casualty_adjusted_severity_slight',
};
/** In a file of the layout before 2024 (no `collision_index`), these columns hold the 2011-specification codes. */
const OLD_LAYOUT_ALIASES: Record<string, string> = {
  ...ALIASES,
  junction_detail: 'junction_detail_historic',
  pedestrian_crossing_human_control: 'pedestrian_crossing_human_control_historic',
  pedestrian_crossing_physical_facilities: 'pedestrian_crossing_physical_facilities_historic',
  carriageway_hazards: 'carriageway_hazards_historic',
  vehicle_manoeuvre: 'vehicle_manoeuvre_historic',
  vehicle_location_restricted_lane: 'vehicle_location_restricted_lane_historic',
  journey_purpose_of_driver: 'journey_purpose_of_driver_historic',
};

const headerOf = (s: ColumnSpec): string => s.header ?? s.column;

/** Which table a file feeds, from its header (names can be anything with `--from`). */
export function kindOfHeader(header: readonly string[]): Stats19Kind {
  const normalised = header.map(normaliseHeader);
  if (normalised.includes('casualty_reference')) return 'casualty';
  if (normalised.includes('vehicle_reference')) return 'vehicle';
  return 'collision';
}

/**
 * The first year DfT publishes a file of its own (`dft-road-casualty-statistics-<kind>-<year>.csv`, 2019
 * onwards on data.dft.gov.uk); earlier years come from the `-1979-latest-published-year` files.
 */
export const FIRST_YEAR_FILE = 2019;

/** The default years: 2021 to the latest year whose final data are out (end of September of the next year). */
export function defaultYears(now: Date): { from: number; to: number } {
  const y = now.getUTCFullYear();
  return { from: FIRST_DEFAULT_YEAR, to: now.getUTCMonth() >= 9 ? y - 1 : y - 2 };
}

export function stats19FileName(kind: Stats19Kind, year: number): string {
  return `dft-road-casualty-statistics-${kind}-${year}.csv`;
}

/** The per-column SELECT list and the row check of one file mapped onto one table's columns. */
function fileSelect(kind: Stats19Kind, header: string[]): { select: string; ok: string; missing: string[]; unused: string[] } {
  const oldLayout = !header.some((h) => normaliseHeader(h) === 'collision_index');
  const specs = STATS19_COLUMNS[kind];
  const { source, unused } = mapHeader(header, specs.map(headerOf), oldLayout ? OLD_LAYOUT_ALIASES : ALIASES);
  const missing = specs.filter((s) => !source.has(headerOf(s))).map(headerOf);
  const parts: string[] = [];
  const checks: string[] = [];
  for (const s of specs) {
    const raw = source.get(headerOf(s));
    let e = typedExpr(s.kind, raw);
    if (s.column === 'collision_year') {
      // the oldest layouts have no year column: the collision index starts with the year
      e = `coalesce(${e}, TRY_CAST(substr(${typedExpr('text', source.get('collision_index'))}, 1, 4) AS INTEGER))`;
      checks.push(`${e} IS NOT NULL`);
    } else if (s.required) checks.push(`${e} IS NOT NULL`);
    else checks.push(parsesExpr(s.kind, raw));
    parts.push(`${e} AS ${quoteIdent(s.column)}`);
  }
  // a line break in any field: a quote never closed (the file is refused in storeRejects)
  checks.push(noBreakInRow(header));
  return { select: parts.join(',\n  '), ok: checks.join(' AND '), missing, unused };
}

const roadSafety: DatasetModule = {
  ...catalogFields(ROAD_SAFETY_INFO),
  defaultBaseUrl: 'https://data.dft.gov.uk/road-accidents-safety-data',
  tables: ['collisions', 'vehicles', 'casualties'],
  rejectThreshold: 0.01,
  fromNames: STATS19_NAME_RE,

  async discover(ctx: DiscoverContext): Promise<UpstreamFile[]> {
    const years = ctx.options.years ?? defaultYears(ctx.now());
    const first = ROAD_SAFETY_YEARS.firstYear.year;
    if (years.from < first || years.to < years.from) {
      throw new Error(`road-safety: --years must lie within ${first} and the latest published year (got ${years.from}-${years.to})`);
    }
    const files: UpstreamFile[] = [];
    if (years.from < FIRST_YEAR_FILE) {
      // DfT publishes one file per year only for recent years; older years are in the whole-history files
      // (filtered to --years by the load)
      for (const kind of STATS19_KINDS) {
        const name = `dft-road-casualty-statistics-${kind}-1979-latest-published-year.csv`;
        files.push({ url: `${ctx.baseUrl}/${name}`, name, kind: 'full' });
      }
      return files;
    }
    for (let y = years.from; y <= years.to; y++) {
      for (const kind of STATS19_KINDS) {
        const name = stats19FileName(kind, y);
        files.push({ url: `${ctx.baseUrl}/${name}`, name, kind: 'full' });
      }
    }
    return files;
  },

  async load(ctx: LoadContext): Promise<LoadResult> {
    const conn = ctx.conn;
    await conn.run(
      `CREATE TABLE code_labels AS
       WITH raw AS (SELECT * FROM read_csv(?, header = true, all_varchar = true, quote = '"', escape = '"')),
       filled AS (
         SELECT coalesce(nullif(trim(r."table"), ''), (SELECT max(trim(x."table")) FROM raw x WHERE x."field name" = r."field name" AND trim(x."table") <> '')) AS table_name,
                trim(r."field name") AS field, trim(r."code/format") AS code, trim(r.label) AS label, nullif(trim(r.note), '') AS note
         FROM raw r)
       SELECT table_name, field, code, any_value(label) AS label, any_value(note) AS note FROM filled
       WHERE code IS NOT NULL AND code <> '' AND label IS NOT NULL AND label <> '' AND NOT starts_with(code, '(')
       GROUP BY ALL ORDER BY table_name, field, code`,
      [join(DATA_DIR, 'vehicles', 'stats19-code-list-2024.csv')],
    );
    const years = ctx.options.years;
    let good = 0;
    let bad = 0;
    for (const kind of STATS19_KINDS) {
      const specs = STATS19_COLUMNS[kind];
      // One statement per table: every file of the kind, read and converted, the labels joined, sorted and
      // written once (no staging copy: writing the table is most of the cost). Rejected rows are written
      // too, flagged by `ok`, then deleted, and the flag column dropped.
      const parts: string[] = [];
      const params: string[] = [];
      for (const file of ctx.files) {
        const header = csvHeader(file.path);
        if (kindOfHeader(header) !== kind) continue;
        const { select, ok, missing, unused } = fileSelect(kind, header);
        if (missing.includes('collision_index')) {
          throw new Error(`road-safety: ${file.name} has no collision_index/accident_index column; is it a STATS19 ${kind} file?`);
        }
        if (unused.length) ctx.log?.(`${file.name}: columns not kept: ${unused.join(', ')}`);
        if (missing.length) ctx.log?.(`${file.name}: columns absent (NULL): ${missing.join(', ')}`);
        // a multi-year file (last-5-years, 1979-latest) keeps only --years when given
        const multiYear = /last-5-years|1979-latest/i.test(file.name);
        const yearFilter = years && multiYear ? `WHERE NOT ok OR collision_year BETWEEN ${Number(years.from)} AND ${Number(years.to)}` : '';
        parts.push(`SELECT * FROM (SELECT ${select},\n  (${ok}) AS ok FROM ${readCsvAllText(header)}) ${yearFilter}`);
        params.push(file.path);
      }
      if (parts.length === 0) {
        parts.push(`SELECT ${specs.map((x) => `CAST(NULL AS ${sqlType(x.kind)}) AS ${quoteIdent(x.column)}`).join(', ')}, true AS ok WHERE false`);
      }
      const labelled = LABELLED[kind];
      const cols = specs.flatMap((x) => {
        const col = `s.${quoteIdent(x.column)}`;
        return labelled.includes(x.column) ? [col, `l_${x.column}.label AS ${quoteIdent(`${x.column}_label`)}`] : [col];
      });
      const joins = labelled
        .map((f) => `LEFT JOIN code_labels l_${f} ON l_${f}.table_name = '${kind}' AND l_${f}.field = '${f}' AND l_${f}.code = CAST(s.${quoteIdent(f)} AS VARCHAR)`)
        .join('\n');
      const order = kind === 'collision' ? 's.collision_index' : kind === 'vehicle' ? 's.collision_index, s.vehicle_reference' : 's.collision_index, s.casualty_reference';
      const table = TABLE[kind];
      await conn.run(`CREATE TABLE ${table} AS SELECT ${cols.join(', ')}, s.ok FROM (${parts.join('\nUNION ALL BY NAME\n')}) s ${joins} ORDER BY ${order}`, params);
      const counts = (await queryOne<{ good: number; bad: number }>(
        conn,
        `SELECT count(*) FILTER (WHERE ok) AS good, count(*) FILTER (WHERE NOT ok) AS bad FROM ${table}`,
      ))!;
      good += counts.good;
      bad += counts.bad;
      if (counts.bad > 0) {
        await storeRejects(ctx, kind);
        await conn.run(`DELETE FROM ${table} WHERE NOT ok`);
      }
      await conn.run(`ALTER TABLE ${table} DROP COLUMN ok`);
      ctx.progress(good);
    }
    await buildCollisionPoints(conn);
    // the years and dates held, for every answer's meta (computed once here, not per request)
    await conn.run(
      `CREATE TABLE coverage AS SELECT min(collision_year) AS year_from, max(collision_year) AS year_to,
         min(collision_date) AS date_from, max(collision_date) AS date_to FROM collisions`,
    );
    const asOf = await queryOne<{ as_of: string | null }>(conn, `SELECT strftime(date_to, '%Y-%m-%d') AS as_of FROM coverage`);
    return { rows: good, rejected: bad, mode: 'full', ...(asOf?.as_of ? { asOf: asOf.as_of } : {}) };
  },

  async verify(conn): Promise<void> {
    const r = (await queryOne<{ n: number; distinct: number }>(
      conn,
      'SELECT count(*) AS n, count(DISTINCT collision_index) AS distinct FROM collisions',
    ))!;
    if (r.n === 0) throw new Error('road-safety: no collision rows were loaded (a collision file is needed for every year)');
    if (r.distinct !== r.n) {
      throw new Error(`road-safety: ${r.n - r.distinct} collision indexes appear twice; were two files covering the same year given?`);
    }
  },
};

/**
 * `collision_points`: the collisions that have a position, as the list's columns plus `lat`/`lng` (DOUBLE),
 * stored in grid-cell order (src/mirror/geo.ts gridCellSql, 0.01-degree latitude bands first) so that a
 * radius search's latitude box prunes to the row groups of its band (DuckDB zone maps) instead of reading
 * five years of the country. `collision_years`: per year, the collisions and how many have a position (the
 * radius answers say how many could not be placed). A position is kept when both coordinates parse and lie
 * on the globe; the text values of the file stay as they are in `latitude`/`longitude`.
 */
async function buildCollisionPoints(conn: LoadContext['conn']): Promise<void> {
  const lat = 'TRY_CAST(latitude AS DOUBLE)';
  const lng = 'TRY_CAST(longitude AS DOUBLE)';
  await conn.run(
    `CREATE TABLE collision_points AS
     SELECT * FROM (SELECT ${COLLISION_LIST_COLUMNS}, ${lat} AS lat, ${lng} AS lng FROM collisions)
     WHERE lat BETWEEN -90 AND 90 AND lng BETWEEN -180 AND 180
     ORDER BY ${gridCellSql('lat', 'lng')}, collision_index`,
  );
  await conn.run(
    `CREATE TABLE collision_years AS
     SELECT c.collision_year, c.collisions, coalesce(p.located, 0) AS located
     FROM (SELECT collision_year, count(*) AS collisions FROM collisions GROUP BY collision_year) c
     LEFT JOIN (SELECT collision_year, count(*) AS located FROM collision_points GROUP BY collision_year) p USING (collision_year)
     ORDER BY c.collision_year`,
  );
}

/** STATS19 files have one collision, vehicle or casualty a line (no field of the real excerpts spans lines). */
const STATS19_CSV: NoBreakFormat = { what: 'STATS19 CSV', why: 'STATS19 files have one collision, vehicle or casualty a line' };

/**
 * Rejected rows of one table, with their line and raw text (the files are read again: the rare path); a file
 * with a rejected row holding a line break is refused (header-alias.ts `storeFileRejects`).
 */
async function storeRejects(ctx: LoadContext, kind: Stats19Kind): Promise<void> {
  for (const file of ctx.files) {
    const header = csvHeader(file.path);
    if (kindOfHeader(header) !== kind) continue;
    const { ok } = fileSelect(kind, header);
    await storeFileRejects(
      ctx.conn,
      { label: basename(file.name), path: file.path, header },
      ok,
      'missing collision index, year or date, a coded value that is not an integer, or a line break in a field',
      STATS19_CSV,
    );
  }
}

export default roadSafety;
export { roadSafety };
