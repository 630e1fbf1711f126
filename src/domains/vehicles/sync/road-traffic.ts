/**
 * `publicdata sync road-traffic`: the Department for Transport's road traffic statistics into
 * road_traffic.duckdb:
 *   aadf                    annual average daily flow per count point and year (dft_traffic_counts_aadf.zip)
 *   count_points            derived from aadf: one row per count point, as recorded in its latest year
 *   regional_vehicle_type   vehicle miles per region and year by vehicle type (region_traffic_by_vehicle_type.csv)
 *   regional_road_type      vehicle miles per region, year and road category (region_traffic_by_road_type.csv)
 *   local_authority_traffic vehicle miles per local authority and year (local_authority_traffic.csv)
 *   regional                the two regional tables as the API's records (vehicle_miles as a JSON object)
 *
 * Upstream: https://storage.googleapis.com/dft-statistics/road-traffic/downloads/data-gov-uk/<name>.
 * `--from` takes those files (the zip, its CSV member, or a per-region / per-local-authority
 * `dft_aadf_*_id_N.csv` download) or a folder or URL prefix holding them. A file is recognised by its
 * header, so any name works. With `--from`, a part not given keeps the data of the previous sync.
 *
 * Format quirks: column names change case and spelling between releases (`lgvs` / `LGVs`, `Region_name`,
 * `ons_code`, `total_link_length_km`): a case-insensitive alias table maps them. Numbers arrive as
 * `2.28e+08` or `1.15E+09` (R and spreadsheet output): parsed as doubles; daily flows are rounded to whole
 * vehicles (half away from zero), vehicle miles are kept as published (unrounded; the 2025 release is
 * itself rounded to 100,000). The 2021 release has a UTF-8 BOM and CRLF; the 2025 one quotes every field.
 */
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { queryOne } from '../../../mirror/db.js';
import { catalogFields, csvHeader, quoteIdent } from '../../../../sync/common.js';
import { extractMembers, isZipFile } from '../../../../sync/formats/zip.js';
import {
  type ColumnKind, type ColumnSpec, mapHeader, noBreakInRow, normaliseHeader, parsesExpr, readCsvAllText, sqlString, sqlType, storeFileRejects, typedExpr,
} from './header-alias.js';
import type { NoBreakFormat } from '../../../../sync/open-quote.js';
import type { DatasetModule, LoadContext, LoadResult, UpstreamFile } from '../../../../sync/types.js';
import { ROAD_TRAFFIC_INFO } from '../traffic-datasets.js';

export type TrafficPart = 'aadf' | 'regional_vehicle_type' | 'regional_road_type' | 'local_authority_traffic';
export const TRAFFIC_PARTS: readonly TrafficPart[] = ['aadf', 'regional_vehicle_type', 'regional_road_type', 'local_authority_traffic'];

/** The publisher's file of each part. */
export const TRAFFIC_FILES: Record<TrafficPart, string> = {
  aadf: 'dft_traffic_counts_aadf.zip',
  regional_vehicle_type: 'region_traffic_by_vehicle_type.csv',
  regional_road_type: 'region_traffic_by_road_type.csv',
  local_authority_traffic: 'local_authority_traffic.csv',
};

export const TRAFFIC_NAME_RE =
  /^(dft_traffic_counts_aadf\.(zip|csv)|dft_aadf_(region|local_authority)_id_\d+\.csv|region_traffic_by_(vehicle|road)_type\.csv|local_authority_traffic\.csv)$/i;

const c = (column: string, kind: ColumnKind, required = false): ColumnSpec => ({ column, kind, ...(required ? { required } : {}) });
const many = (kind: ColumnKind, ...names: string[]): ColumnSpec[] => names.map((n) => c(n, kind));

/** Vehicle classes of the AADF file, in file order (vehicles per day). */
export const AADF_FLOWS = [
  'pedal_cycles', 'two_wheeled_motor_vehicles', 'cars_and_taxis', 'buses_and_coaches', 'lgvs', 'hgvs_2_rigid_axle',
  'hgvs_3_rigid_axle', 'hgvs_4_or_more_rigid_axle', 'hgvs_3_or_4_articulated_axle', 'hgvs_5_articulated_axle',
  'hgvs_6_articulated_axle', 'all_hgvs', 'all_motor_vehicles',
] as const;
/** Vehicle classes of the regional file (vehicle miles). */
export const REGIONAL_VEHICLE_TYPES = [
  'pedal_cycles', 'two_wheeled_motor_vehicles', 'cars_and_taxis', 'buses_and_coaches', 'lgvs', 'all_hgvs', 'all_motor_vehicles',
] as const;

const REGION = [c('year', 'int', true), c('region_id', 'int'), c('region_name', 'text', true), c('region_ons_code', 'text')];
const LENGTH = many('double', 'link_length_km', 'link_length_miles');

export const TRAFFIC_COLUMNS: Record<TrafficPart, readonly ColumnSpec[]> = {
  aadf: [
    c('count_point_id', 'int', true),
    c('year', 'int', true),
    c('region_id', 'int'),
    ...many('text', 'region_name', 'region_ons_code'),
    c('local_authority_id', 'int'),
    ...many('text', 'local_authority_name', 'local_authority_code', 'road_name', 'road_category', 'road_type', 'start_junction_road_name', 'end_junction_road_name'),
    ...many('bigint', 'easting', 'northing'),
    ...many('double', 'latitude', 'longitude'),
    ...LENGTH,
    ...many('text', 'estimation_method', 'estimation_method_detailed'),
    ...many('bigint', ...AADF_FLOWS),
  ],
  regional_vehicle_type: [...REGION, ...LENGTH, ...many('double', ...REGIONAL_VEHICLE_TYPES)],
  regional_road_type: [...REGION, c('road_category_id', 'int'), c('road_category_name', 'text', true), ...LENGTH, c('all_motor_vehicles', 'double')],
  local_authority_traffic: [
    c('local_authority_id', 'int'),
    c('local_authority_name', 'text', true),
    c('local_authority_code', 'text'),
    c('year', 'int', true),
    ...LENGTH,
    ...many('double', 'cars_and_taxis', 'all_motor_vehicles'),
  ],
};

/** Header aliases (normalised names) across releases. */
const ALIASES: Record<string, string> = {
  ons_code: 'region_ons_code',
  total_link_length_km: 'link_length_km',
  total_link_length_miles: 'link_length_miles',
  // the count-point releases before 2019 (CamelCase headers)
  cp: 'count_point_id',
  aadfyear: 'year',
  region: 'region_name',
  localauthority: 'local_authority_name',
  road: 'road_name',
  roadcategory: 'road_category',
  linklength_km: 'link_length_km',
  linklength_miles: 'link_length_miles',
  pedalcycles: 'pedal_cycles',
  motorcycles: 'two_wheeled_motor_vehicles',
  carstaxis: 'cars_and_taxis',
  busescoaches: 'buses_and_coaches',
  lightgoodsvehicles: 'lgvs',
  allhgvs: 'all_hgvs',
  allmotorvehicles: 'all_motor_vehicles',
};

/** Which part a CSV header belongs to. */
export function partOfHeader(header: readonly string[]): TrafficPart | undefined {
  const n = new Set(header.map((h) => ALIASES[normaliseHeader(h)] ?? normaliseHeader(h)));
  if (n.has('direction_of_travel')) return undefined; // the by-direction file: not this dataset
  if (n.has('count_point_id')) return 'aadf';
  if (n.has('road_category_name')) return 'regional_road_type';
  if (n.has('region_name') && n.has('all_motor_vehicles')) return 'regional_vehicle_type';
  if (n.has('local_authority_name') && n.has('all_motor_vehicles')) return 'local_authority_traffic';
  return undefined;
}

function fileSelect(part: TrafficPart, header: string[]): { select: string; ok: string; missing: string[] } {
  const specs = TRAFFIC_COLUMNS[part];
  const { source } = mapHeader(header, specs.map((s) => s.column), ALIASES);
  const missing = specs.filter((s) => !source.has(s.column)).map((s) => s.column);
  const required = specs.filter((s) => s.required && !source.has(s.column)).map((s) => s.column);
  if (required.length) throw new Error(`lacks the column(s) ${required.join(', ')}`);
  const select = specs.map((s) => `${typedExpr(s.kind, source.get(s.column))} AS ${quoteIdent(s.column)}`).join(', ');
  const ok = [
    ...specs.map((s) => (s.required ? `${typedExpr(s.kind, source.get(s.column))} IS NOT NULL` : parsesExpr(s.kind, source.get(s.column)))),
    // a line break in any field: a quote never closed (the file is refused with its rejects)
    noBreakInRow(header),
  ].join(' AND ');
  return { select, ok, missing };
}

/** The road traffic files have one count point, region or local authority and year a line (no field of the real excerpts spans lines). */
const TRAFFIC_CSV: NoBreakFormat = { what: 'DfT road traffic CSV', why: 'the road traffic files have one count point or area and year a line' };

const ORDER: Record<TrafficPart, string> = {
  aadf: 'count_point_id, year',
  regional_vehicle_type: 'year, region_id, region_name',
  regional_road_type: 'year, region_id, region_name, road_category_id, road_category_name',
  local_authority_traffic: 'year, local_authority_name',
};

/** A road category name as a `vehicle_miles` key: lower case, runs of other characters as `_` ("Trunk motorways" → trunk_motorways). */
const CATEGORY_KEY_SQL = `trim(regexp_replace(lower(road_category_name), '[^a-z0-9]+', '_', 'g'), '_')`;

const roadTraffic: DatasetModule = {
  ...catalogFields(ROAD_TRAFFIC_INFO),
  defaultBaseUrl: 'https://storage.googleapis.com/dft-statistics/road-traffic/downloads/data-gov-uk',
  tables: TRAFFIC_PARTS,
  rejectThreshold: 0.01,
  fromNames: TRAFFIC_NAME_RE,

  async discover(ctx): Promise<UpstreamFile[]> {
    return TRAFFIC_PARTS.map((p) => ({ url: `${ctx.baseUrl}/${TRAFFIC_FILES[p]}`, name: TRAFFIC_FILES[p], kind: 'full' as const }));
  },

  async load(ctx: LoadContext): Promise<LoadResult> {
    const conn = ctx.conn;
    for (const part of TRAFFIC_PARTS) {
      const specs = TRAFFIC_COLUMNS[part];
      await conn.run(`CREATE TEMP TABLE stage_${part} (${specs.map((s) => `${quoteIdent(s.column)} ${sqlType(s.kind)}`).join(', ')}, ok BOOLEAN)`);
    }
    const given = new Set<TrafficPart>();
    const badSoFar = new Map<TrafficPart, number>();
    const loadCsv = async (path: string, name: string, inZip?: string): Promise<void> => {
      const header = csvHeader(path);
      const part = partOfHeader(header);
      const label = inZip ? `${inZip}: ${name}` : name;
      if (!part) {
        throw new Error(
          `${label} is not a file of this dataset (expected the AADF file, region_traffic_by_vehicle_type.csv, region_traffic_by_road_type.csv or local_authority_traffic.csv; the by-direction AADF file is not used)`,
        );
      }
      let sel: ReturnType<typeof fileSelect>;
      try {
        sel = fileSelect(part, header);
      } catch (e) {
        throw new Error(`${label} ${(e as Error).message}`);
      }
      if (sel.missing.length) ctx.log?.(`${label}: columns absent (NULL): ${sel.missing.join(', ')}`);
      given.add(part);
      await conn.run(`INSERT INTO stage_${part} SELECT ${sel.select}, (${sel.ok}) AS ok FROM ${readCsvAllText(header)}`, [path]);
      const n = (await queryOne<{ bad: number }>(conn, `SELECT count(*) FILTER (WHERE NOT ok) AS bad FROM stage_${part}`))!.bad;
      if (n > (badSoFar.get(part) ?? 0)) {
        badSoFar.set(part, n);
        await storeFileRejects(
          conn,
          { label, path, header },
          sel.ok,
          'a required value (year, id, name) is missing, a number does not parse, or a line break in a field',
          TRAFFIC_CSV,
        );
      }
    };
    for (const file of ctx.files) {
      if (isZipFile(file.path)) {
        const dest = join(dirname(file.path), `${file.name}.members`);
        try {
          let csvs = 0;
          for await (const m of extractMembers(file.path, dest, { filter: (mem) => /\.csv$/i.test(mem.name) })) {
            csvs++;
            await loadCsv(m.path, m.name, file.name);
          }
          if (csvs === 0) throw new Error(`${file.name} holds no CSV file`);
        } finally {
          rmSync(dest, { recursive: true, force: true });
        }
      } else {
        await loadCsv(file.path, file.name);
      }
    }
    // parts not given (a --from of some files) keep the previous sync's data
    const carried: TrafficPart[] = [];
    const prev = ctx.previousPath && existsSync(ctx.previousPath) ? ctx.previousPath : undefined;
    if (prev && given.size < TRAFFIC_PARTS.length) {
      await conn.run(`ATTACH ${sqlString(prev)} AS prev (READ_ONLY)`);
    }
    let rows = 0;
    let rejected = 0;
    for (const part of TRAFFIC_PARTS) {
      const cols = TRAFFIC_COLUMNS[part].map((s) => quoteIdent(s.column)).join(', ');
      if (!given.has(part) && prev) {
        const has = await queryOne<{ n: number }>(
          conn,
          `SELECT count(*) AS n FROM duckdb_tables() WHERE database_name = 'prev' AND table_name = ?`,
          [part],
        );
        if (has && has.n > 0) {
          await conn.run(`CREATE TABLE ${part} AS SELECT ${cols} FROM prev.${part}`);
          carried.push(part);
        }
      }
      if (!carried.includes(part)) {
        // DISTINCT: overlapping files (a region's AADF download and the whole-GB file) repeat identical rows
        await conn.run(`CREATE TABLE ${part} AS SELECT DISTINCT ${cols} FROM stage_${part} WHERE ok ORDER BY ${ORDER[part]}`);
      }
      const r = (await queryOne<{ n: number }>(conn, `SELECT count(*) AS n FROM ${part}`))!;
      const b = (await queryOne<{ n: number }>(conn, `SELECT count(*) AS n FROM stage_${part} WHERE NOT ok`))!;
      rows += r.n;
      rejected += b.n;
      await conn.run(`DROP TABLE stage_${part}`);
    }
    if (prev && given.size < TRAFFIC_PARTS.length) await conn.run('DETACH prev');
    if (carried.length) ctx.log?.(`kept from the previous sync: ${carried.join(', ')}`);
    await deriveTables(conn);
    ctx.progress(rows);
    const asOf = await queryOne<{ y: number | null }>(
      conn,
      `SELECT max(y) AS y FROM (SELECT max(year) AS y FROM aadf UNION ALL SELECT max(year) FROM regional_vehicle_type
         UNION ALL SELECT max(year) FROM regional_road_type UNION ALL SELECT max(year) FROM local_authority_traffic)`,
    );
    // the data describe calendar years: as of the end of the latest one
    return { rows, rejected, mode: 'full', ...(asOf?.y ? { asOf: `${asOf.y}-12-31` } : {}) };
  },

  async verify(conn): Promise<void> {
    const r = (await queryOne<{ n: number; dup: number }>(
      conn,
      `SELECT (SELECT count(*) FROM aadf) + (SELECT count(*) FROM regional_vehicle_type) + (SELECT count(*) FROM regional_road_type)
              + (SELECT count(*) FROM local_authority_traffic) AS n,
              (SELECT count(*) FROM (SELECT count_point_id, year FROM aadf GROUP BY ALL HAVING count(*) > 1)) AS dup`,
    ))!;
    if (r.n === 0) throw new Error('road-traffic: no rows were loaded');
    if (r.dup > 0) throw new Error(`road-traffic: ${r.dup} count point/year pairs appear with different values in the AADF files given`);
  },
};

/** count_points and regional, derived from the loaded tables. */
async function deriveTables(conn: LoadContext['conn']): Promise<void> {
  await conn.run(
    `CREATE TABLE count_points AS
     SELECT count_point_id, max(year) AS year, min(year) AS first_year,
            arg_max(road_name, year) AS road_name, arg_max(road_type, year) AS road_type, arg_max(road_category, year) AS road_category,
            arg_max(latitude, year) AS latitude, arg_max(longitude, year) AS longitude,
            arg_max(region_name, year) AS region_name, arg_max(local_authority_name, year) AS local_authority_name
     FROM aadf GROUP BY count_point_id ORDER BY count_point_id`,
  );
  const vt = REGIONAL_VEHICLE_TYPES.map((k) => `${quoteIdent(k)} := ${quoteIdent(k)}`).join(', ');
  await conn.run(
    `CREATE TABLE regional AS
     SELECT * FROM (
       SELECT year, region_id, region_name, region_ons_code, 'vehicle_type' AS breakdown, to_json(struct_pack(${vt}))::VARCHAR AS vehicle_miles
       FROM regional_vehicle_type
       UNION ALL
       SELECT year, any_value(region_id), region_name, any_value(region_ons_code), 'road_type',
              to_json(map_from_entries(list(struct_pack(k := ${CATEGORY_KEY_SQL}, v := all_motor_vehicles) ORDER BY road_category_id, road_category_name)))::VARCHAR
       FROM regional_road_type GROUP BY year, region_name)
     ORDER BY year, region_name, breakdown`,
  );
}

export default roadTraffic;
export { roadTraffic };
