/**
 * Local handlers of /v1/postcodes over postcodes.duckdb (sync.ts): one postcode, a lookup of up to 100, and
 * the postcodes nearest a point. A lookup reads `postcode_index` (sorted by key: one row group) for the
 * postcode's latitude, then `postcodes` (sorted by latitude: one row group) for the row. Distances through
 * src/mirror/geo.ts. meta: provenance with the three ONSPD attribution lines in `licence`, `edition`, and
 * `note` (Northern Ireland terms; deprivation ranks are per nation).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { pagination } from '../../contract/envelope.js';
import { ApiError } from '../../contract/errors.js';
import type { Handler, Meta } from '../../contract/types.js';
import { openDataset, provenanceMeta, query, queryOne, Where } from '../../mirror/db.js';
import { radiusSearch } from '../../mirror/geo.js';
import { pointOf } from '../../contract/point.js';
import { NEAREST_POINT } from './routes.js';
import { POSTCODES_INFO } from './datasets.js';
import { AREA_COLUMNS, postcodeRecord, reference, type Names, type Row } from './record.js';

const FULL_RE = /^([A-Z]{1,2}\d[A-Z\d]?)(\d[A-Z]{2})$/;

/** `ls83bs`, `LS8  3BS` -> `LS83BS`, or undefined when it cannot be a full UK postcode. */
export function postcodeKey(raw: string): string | undefined {
  const k = raw.replace(/\s+/g, '').toUpperCase();
  return FULL_RE.test(k) ? k : undefined;
}
const display = (key: string) => key.replace(FULL_RE, '$1 $2');

const DEPRIVATION_NOTE = 'deprivation ranks are within each nation\'s own index (England, Wales, Scotland and Northern Ireland each rank their own areas): never compare them across nations.';

interface Edition { edition: string | null; imd_column: string | null }
const editions = new WeakMap<DuckDBConnection, Promise<Edition>>();
function edition(conn: DuckDBConnection): Promise<Edition> {
  let p = editions.get(conn);
  if (!p) {
    p = queryOne<Edition & Row>(conn, 'SELECT edition, imd_column FROM edition').then((r) => r ?? { edition: null, imd_column: null });
    editions.set(conn, p);
  }
  return p;
}

async function names(conn: DuckDBConnection, rows: readonly Row[]): Promise<Names> {
  const codes = [...new Set(rows.flatMap((r) => AREA_COLUMNS.map((c) => r[c]).filter((v): v is string => typeof v === 'string')))];
  const ru = [...new Set(rows.map((r) => r.ru).filter((v): v is string => typeof v === 'string'))];
  const out = new Map<string, string>();
  if (!codes.length && !ru.length) return out;
  const list = (n: number) => (n ? Array(n).fill('?').join(', ') : 'NULL');
  for (const r of await query<{ k: string; name: string }>(
    conn,
    `SELECT kind || ':' || code AS k, name FROM area_names WHERE (kind = 'gss' AND code IN (${list(codes.length)})) OR (kind = 'ru' AND code IN (${list(ru.length)}))`,
    [...codes, ...ru],
  )) out.set(r.k, r.name);
  return out;
}

async function postcodesMeta(conn: DuckDBConnection, records: ReadonlyArray<Record<string, unknown> | null>): Promise<Meta> {
  const e = await edition(conn);
  const notes: string[] = [];
  if (records.some((r) => (r?.country as { code?: string } | null)?.code === 'N92000002')) notes.push(reference().ni_note);
  if (records.some((r) => r?.deprivation)) notes.push(DEPRIVATION_NOTE);
  return provenanceMeta(POSTCODES_INFO, conn, { edition: e.edition, ...(notes.length ? { note: notes.join(' ') } : {}) });
}

/** The rows of these postcode keys (each found through the index: its latitude prunes the main table). */
export async function rowsByKey(conn: DuckDBConnection, keys: readonly string[]): Promise<Map<string, Row>> {
  const out = new Map<string, Row>();
  if (!keys.length) return out;
  const ph = keys.map(() => '?').join(', ');
  const idx = await query<{ pc_key: string; lat: number | null }>(conn, `SELECT pc_key, lat FROM postcode_index WHERE pc_key IN (${ph})`, [...keys]);
  for (const i of idx) {
    const row = i.lat === null
      ? await queryOne(conn, 'SELECT * FROM postcodes WHERE lat IS NULL AND pc_key = ?', [i.pc_key])
      : await queryOne(conn, 'SELECT * FROM postcodes WHERE lat = ? AND pc_key = ?', [i.lat, i.pc_key]);
    if (row) out.set(i.pc_key, row);
  }
  return out;
}

export const detail: Handler = async (req, ctx) => {
  const key = postcodeKey(String(req.params.postcode));
  if (!key) throw new ApiError(400, 'invalid_parameter', `Invalid parameter 'postcode': '${String(req.params.postcode)}' is not a UK postcode (e.g. LS8 3BS).`);
  const conn = await openDataset(POSTCODES_INFO, ctx.mirrorDir);
  const row = (await rowsByKey(conn, [key])).get(key);
  const e = await edition(conn);
  if (!row) throw new ApiError(404, 'not_found', `Postcode ${display(key)} is not in the ONS Postcode Directory (edition ${e.edition ?? 'loaded'}).`);
  const rec = postcodeRecord(row, await names(conn, [row]), e.imd_column);
  return { data: rec, meta: await postcodesMeta(conn, [rec]) };
};

export const lookup: Handler = async (req, ctx) => {
  const given = (req.body as { postcodes: unknown[] }).postcodes;
  const keys = given.map((p) => (typeof p === 'string' ? postcodeKey(p) : undefined));
  const conn = await openDataset(POSTCODES_INFO, ctx.mirrorDir);
  const rows = await rowsByKey(conn, [...new Set(keys.filter((k): k is string => k !== undefined))]);
  const e = await edition(conn);
  const nm = await names(conn, [...rows.values()]);
  const data = given.map((p, i) => {
    const k = keys[i];
    if (!k) return { query: p, result: null, error: { code: 'invalid_parameter', message: `'${String(p)}' is not a UK postcode (e.g. LS8 3BS)` } };
    const row = rows.get(k);
    return { query: p, result: row ? postcodeRecord(row, nm, e.imd_column) : null };
  });
  return { data, meta: await postcodesMeta(conn, data.map((d) => d.result)) };
};

export const nearest: Handler = async (req, ctx) => {
  const q = req.query;
  const circle = pointOf(q, NEAREST_POINT)!;
  const page = Number(q.page ?? 1);
  const perPage = Number(q.per_page ?? 25);
  const conn = await openDataset(POSTCODES_INFO, ctx.mirrorDir);
  // the table is sorted by latitude: the search's latitude band prunes it to a few row groups (zone maps)
  const search = radiusSearch(circle, { lat: 'lat', lng: 'lng' });
  const where = new Where();
  search.within(where);
  if (q.include_terminated !== true) where.add('terminated IS NULL');
  const total = (await queryOne<{ n: number }>(conn, `SELECT count(*) AS n FROM postcodes ${where.sql}`, where.params))!.n;
  const offset = (page - 1) * perPage;
  const rows = total > offset
    ? await query(conn, `SELECT *, ${search.select} FROM postcodes ${where.sql} ORDER BY ${search.orderBy('pc_key')} LIMIT ? OFFSET ?`, [...search.selectParams, ...where.params, perPage, offset])
    : [];
  const e = await edition(conn);
  const nm = await names(conn, rows);
  const data = rows.map((r) => ({ ...postcodeRecord(r, nm, e.imd_column), distance_km: Number(r.distance_km) }));
  const m = await postcodesMeta(conn, data);
  return { data, meta: { ...m, distance: search.method }, pagination: pagination(total, page, perPage) };
};
