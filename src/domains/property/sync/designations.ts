/**
 * `publicdata sync listed-buildings` and `publicdata sync conservation-areas`: planning.data.gov.uk bulk CSVs
 * (https://files.planning.data.gov.uk/dataset/listed-building.csv and .../conservation-area.csv) into
 * listed_buildings.duckdb / conservation_areas.duckdb, table `designations`.
 *
 * The platform's flattened CSV starts with the common entity columns
 * `dataset,end-date,entity,entry-date,geojson,geometry,name,organisation-entity,point,prefix,reference,start-date,typology`
 * followed by the dataset's own fields (alphabetical). The file is read by header name (all text), so extra or
 * reordered columns do not matter; missing required columns stop the sync.
 *  - latitude/longitude come from `point` (WKT `POINT(lng lat)`; null when blank or unparseable);
 *  - the polygon in `geometry` is NOT stored: boundary_reference is the entity's GeoJSON URL on the platform
 *    when the upstream row has a geometry, else null;
 *  - dates are YYYY-MM-DD or null; one row per entity (the latest entry-date wins).
 * Rows whose `entity` is not an integer are rejected.
 */
import { basename } from 'node:path';
import { ENTITY_URL, type DesignationKind } from '../designations.js';
import { queryOne } from '../../../mirror/db.js';
import { catalogFields, csvHeader, quoteIdent } from '../../../../sync/common.js';
import type { DatasetModule, DatasetName, DiscoverContext, LoadContext, LoadResult, UpstreamFile } from '../../../../sync/types.js';
import { CONSERVATION_AREAS_INFO, LISTED_BUILDINGS_INFO } from '../datasets.js';

/** The platform's dataset name of each kind. */
export const PLATFORM_DATASET: Record<DesignationKind, string> = {
  'listed-buildings': 'listed-building',
  'conservation-areas': 'conservation-area',
};

const REQUIRED = ['entity', 'name', 'organisation-entity', 'point', 'geometry', 'reference', 'entry-date', 'start-date', 'end-date'];

export const DESIGNATIONS_DDL = `CREATE TABLE designations (
  entity_id           BIGINT  NOT NULL,  -- platform entity id
  name                VARCHAR,
  reference           VARCHAR,           -- the publisher's reference (Historic England list entry, CA number...)
  organisation_entity BIGINT,
  latitude            DOUBLE,            -- from the WKT point; NULL when none
  longitude           DOUBLE,
  boundary_reference  VARCHAR,           -- entity GeoJSON URL when upstream has a polygon (polygon not stored)
  entry_date          DATE,
  start_date          DATE,
  end_date            DATE,
  dataset             VARCHAR,
  documentation_url   VARCHAR,
  grade               VARCHAR,           -- listed-building-grade (listed buildings)
  designation_date    DATE               -- designation-date (conservation areas)
)`;

const blank = (col: string) => `nullif(trim(${quoteIdent(col)}), '')`;
const dateOf = (col: string) => `TRY_CAST(${blank(col)} AS DATE)`;
/** A number from `POINT(lng lat)` / `POINT (lng lat)`: group 1 longitude, 2 latitude. */
const POINT_RE = `^\\s*POINT\\s*\\(\\s*([-+0-9.eE]+)\\s+([-+0-9.eE]+)\\s*\\)\\s*$`;
const coord = (group: 1 | 2) => `TRY_CAST(nullif(regexp_extract(${quoteIdent('point')}, '${POINT_RE}', ${group}), '') AS DOUBLE)`;

function designationModule(kind: DesignationKind): DatasetModule {
  const platform = PLATFORM_DATASET[kind];
  return {
    ...catalogFields(kind === 'listed-buildings' ? LISTED_BUILDINGS_INFO : CONSERVATION_AREAS_INFO),
    defaultBaseUrl: 'https://files.planning.data.gov.uk',
    tables: ['designations'],
    rejectThreshold: 0.01,

    async discover(ctx: DiscoverContext): Promise<UpstreamFile[]> {
      return [{ url: `${ctx.baseUrl.replace(/\/+$/, '')}/dataset/${platform}.csv`, name: `${platform}.csv`, kind: 'full' }];
    },

    async load(ctx: LoadContext): Promise<LoadResult> {
      const file = ctx.files[0];
      if (!file) throw new Error(`${kind}: no file downloaded`);
      const header = csvHeader(file.path);
      const missing = REQUIRED.filter((c) => !header.includes(c));
      if (missing.length) {
        throw new Error(`${basename(file.path)}: not a planning.data.gov.uk ${platform} CSV (missing column(s) ${missing.join(', ')})`);
      }
      const has = (c: string) => header.includes(c);
      const conn = ctx.conn;
      const opt = (c: string, sql: (c: string) => string, type: string) => (has(c) ? sql(c) : `CAST(NULL AS ${type})`);
      // One pass over the file keeping only what is stored: polygons are reduced to a has_geometry flag here,
      // so the (large) geometry text is never materialised.
      await conn.run(
        `CREATE TEMP TABLE typed AS SELECT
          row_number() OVER () + 1 AS line,
          ${quoteIdent('entity')} AS entity_raw,
          TRY_CAST(${blank('entity')} AS BIGINT) AS entity_id,
          ${blank('name')} AS name,
          ${blank('reference')} AS reference,
          TRY_CAST(${blank('organisation-entity')} AS BIGINT) AS organisation_entity,
          ${coord(2)} AS latitude,
          ${coord(1)} AS longitude,
          ${blank('geometry')} IS NOT NULL AS has_geometry,
          ${dateOf('entry-date')} AS entry_date,
          ${dateOf('start-date')} AS start_date,
          ${dateOf('end-date')} AS end_date,
          coalesce(${opt('dataset', blank, 'VARCHAR')}, ?) AS dataset,
          ${opt('documentation-url', blank, 'VARCHAR')} AS documentation_url,
          ${opt('listed-building-grade', blank, 'VARCHAR')} AS grade,
          ${opt('designation-date', dateOf, 'DATE')} AS designation_date
        FROM read_csv(?, header = true, all_varchar = true, quote = '"', escape = '"', max_line_size = 268435456,
                      strict_mode = false, null_padding = true)`,
        [platform, file.path],
      );
      await conn.run(DESIGNATIONS_DDL);
      await conn.run(
        `INSERT INTO designations
         SELECT entity_id, name, reference, organisation_entity,
                CASE WHEN latitude BETWEEN -90 AND 90 AND longitude BETWEEN -180 AND 180 THEN latitude END,
                CASE WHEN latitude BETWEEN -90 AND 90 AND longitude BETWEEN -180 AND 180 THEN longitude END,
                CASE WHEN has_geometry THEN ? || entity_id::VARCHAR || '.geojson' END,
                entry_date, start_date, end_date, dataset, documentation_url, grade, designation_date
         FROM typed WHERE entity_id IS NOT NULL
         QUALIFY row_number() OVER (PARTITION BY entity_id ORDER BY entry_date DESC NULLS LAST, line DESC) = 1
         ORDER BY lower(name), entity_id`,
        [ENTITY_URL],
      );
      const c = (await queryOne<{ good: number; bad: number; as_of: string | null }>(
        conn,
        `SELECT (SELECT count(*) FROM designations) AS good,
                (SELECT count(*) FROM typed WHERE entity_id IS NULL) AS bad,
                (SELECT max(entry_date) FROM designations)::VARCHAR AS as_of`,
      ))!;
      if (c.bad > 0) {
        await conn.run(
          `INSERT INTO rejects SELECT ?, line, left(concat_ws(',', entity_raw, name, reference), 1000), 'entity is not an integer'
           FROM typed WHERE entity_id IS NULL ORDER BY line LIMIT 1000`,
          [file.name],
        );
      }
      await conn.run('DROP TABLE typed');
      ctx.progress(c.good);
      return { rows: c.good, rejected: c.bad, mode: 'full', ...(c.as_of ? { asOf: c.as_of } : {}) };
    },

    async verify(conn): Promise<void> {
      const r = await queryOne<{ n: number }>(conn, 'SELECT count(*) AS n FROM designations');
      if (!r?.n) throw new Error(`${kind}: the file held no entities; refusing to replace the data`);
    },
  };
}

export const listedBuildings = designationModule('listed-buildings');
export const conservationAreas = designationModule('conservation-areas');
