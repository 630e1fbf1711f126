/**
 * /v1/vehicles/licensing and /v1/vehicles/registrations over the mirror's vehicle_licensing.duckdb
 * (sync/vehicle-licensing.ts: DfT VEH0120 licensed vehicles and VEH0160 first registrations, GB and UK).
 *
 * Matching (spec doc 3 "Vehicles"; decisions in docs/vehicles.md):
 * - `make` is a case-insensitive prefix resolved against the `makes` table. A value equal to a make matches
 *   that make only (so FORD is Ford, not also FORDSON); otherwise every make starting with it. Licensing:
 *   one character, or a prefix matching more than 25 makes, is 422 `make_prefix_too_broad` (with the count).
 * - `model` is a case-insensitive prefix of the model (`FIESTA ZETEC`) or of the generic model with or
 *   without its make (`FORD FIESTA`, `FIESTA`); with `make` it stays within the make(s) matched.
 * - `body_type` is exact (case-insensitive); `quarter_from`/`quarter_to` compare quarter-end dates, inclusive.
 * - Order: one make: newest quarter first; several makes (or none): make, then newest quarter; ties by
 *   geography, body type, generic model, model, fuel, licence status, so pages are stable.
 * - Without `geography` both GB and UK rows are returned (UK includes GB; meta says so).
 * Pagination totals are exact (the live service gives estimates).
 */
import { pagination } from '../../contract/envelope.js';
import { ApiError } from '../../contract/errors.js';
import type { Handler, HandlerRequest, SuccessEnvelope } from '../../contract/types.js';
import { openDataset, pagedQuery, provenanceMeta, query, Where } from '../../mirror/db.js';
import { VEHICLE_LICENSING_INFO } from './datasets.js';

const DATASET = VEHICLE_LICENSING_INFO;
/** Most makes a licensing prefix may match (spec: more than 25 is 422). */
export const MAX_PREFIX_MAKES = 25;

type Table = 'licensing' | 'registrations';

export interface LicensingRecord {
  quarter: string;
  geography: 'GB' | 'UK';
  licence_status: 'Licensed' | 'SORN';
  body_type: string;
  make: string;
  generic_model: string | null;
  model: string | null;
  fuel: string | null;
  count: number;
}
export type RegistrationRecord = Omit<LicensingRecord, 'licence_status'>;

/** `2026-03-31` -> `2026 Q1`. */
export function quarterLabel(date: string): string {
  return `${date.slice(0, 4)} Q${Math.ceil(Number(date.slice(5, 7)) / 3)}`;
}

const str = (v: unknown): string | undefined => {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t === '' ? undefined : t;
};

/** The makes a `make` parameter stands for (see the module comment); throws 422 for licensing when too broad. */
async function resolveMakes(conn: Awaited<ReturnType<typeof openDataset>>, table: Table, raw: string): Promise<string[]> {
  const p = raw.toUpperCase();
  if (table === 'licensing' && p.length < 2) {
    throw new ApiError(422, 'make_prefix_too_broad', `The make prefix '${raw}' is one character; give at least two characters of the make.`);
  }
  const rows = await query<{ make: string }>(
    conn,
    'SELECT make FROM makes WHERE dataset = ? AND starts_with(upper(make), ?) ORDER BY make',
    [table, p],
  );
  const exact = rows.filter((r) => r.make.toUpperCase() === p);
  if (exact.length) return exact.map((r) => r.make);
  if (table === 'licensing' && rows.length > MAX_PREFIX_MAKES) {
    throw new ApiError(
      422,
      'make_prefix_too_broad',
      `The make prefix '${raw}' matches ${rows.length} makes; at most ${MAX_PREFIX_MAKES} are allowed. Give more of the make.`,
    );
  }
  return rows.map((r) => r.make);
}

interface Coverage {
  geography: string;
  from: string;
  to: string;
}
const coverageCache = new WeakMap<object, Map<Table, Promise<Coverage[]>>>();
/** Quarters covered per geography (the `coverage` table written at sync), read once per open file. */
function coverageOf(conn: Awaited<ReturnType<typeof openDataset>>, table: Table): Promise<Coverage[]> {
  let byConn = coverageCache.get(conn);
  if (!byConn) coverageCache.set(conn, (byConn = new Map()));
  let p = byConn.get(table);
  if (!p) {
    p = query<Coverage & Record<string, unknown>>(
      conn,
      "SELECT geography, strftime(from_quarter, '%Y-%m-%d') AS \"from\", strftime(to_quarter, '%Y-%m-%d') AS \"to\" FROM coverage WHERE dataset = ? ORDER BY geography",
      [table],
    );
    byConn.set(table, p);
  }
  return p;
}

async function list(table: Table, req: HandlerRequest, ctx: Parameters<Handler>[1]): Promise<SuccessEnvelope> {
  const q = req.query;
  const page = Number(q.page ?? 1);
  const perPage = Number(q.per_page ?? 25);
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const geography = str(q.geography);
  const cov = (await coverageOf(conn, table)).filter((c) => !geography || c.geography === geography);
  const from = cov.map((c) => c.from).sort()[0];
  const to = cov.map((c) => c.to).sort().pop();
  const meta = await provenanceMeta(DATASET, conn, {
    ...(to ? { last_updated: quarterLabel(to) } : {}),
    coverage: from && to ? { from, to, geography: geography ?? cov.map((c) => c.geography).join(' and ') } : null,
    cadence: 'quarterly',
    unit: table === 'licensing' ? 'vehicles licensed or SORN at the quarter end' : 'vehicles registered for the first time in the quarter',
    caveat:
      'Zero counts and cells the publisher suppressed or marked not applicable ([c], [x], [z], [low]) are omitted.' +
      (geography ? '' : ' Without geography both GB and UK rows are listed; UK figures include GB.') +
      (table === 'registrations' ? ' A first registration is a new vehicle or a used import.' : ''),
    pagination_note: 'totals are exact for the synced release',
  });
  const where = new Where();
  const make = str(q.make);
  let makes: string[] | undefined;
  if (make) {
    makes = await resolveMakes(conn, table, make);
    if (!makes.length) return { data: [], meta: { ...meta, makes_matched: [] }, pagination: pagination(0, page, perPage) };
    where.add(`make IN (${makes.map(() => '?').join(', ')})`, ...makes);
  }
  const model = str(q.model)?.toUpperCase();
  if (model) {
    where.add(
      "(starts_with(upper(model), ?) OR starts_with(upper(generic_model), ?) OR starts_with(upper(generic_model), upper(make) || ' ' || ?))",
      model,
      model,
      model,
    );
  }
  if (q.quarter_from) where.add('quarter >= CAST(? AS DATE)', String(q.quarter_from));
  if (q.quarter_to) where.add('quarter <= CAST(? AS DATE)', String(q.quarter_to));
  const body = str(q.body_type);
  if (body) where.add('lower(body_type) = lower(?)', body);
  if (table === 'licensing' && q.licence_status) where.add('licence_status = ?', String(q.licence_status));
  if (geography) where.add('geography = ?', geography);
  const ties = `geography, body_type, generic_model, model, fuel${table === 'licensing' ? ', licence_status' : ''}`;
  const orderBy = makes && makes.length === 1 ? `quarter DESC, ${ties}` : `make, quarter DESC, ${ties}`;
  const columns = `strftime(quarter, '%Y-%m-%d') AS quarter, geography, ${table === 'licensing' ? 'licence_status, ' : ''}body_type, make, generic_model, model, fuel, count`;
  const { rows, total } = await pagedQuery(conn, { from: table, columns, where, orderBy, page, perPage });
  return {
    data: rows,
    meta: { ...meta, ...(makes ? { makes_matched: makes } : {}) },
    pagination: pagination(total, page, perPage),
  };
}

export const licensing: Handler = (req, ctx) => list('licensing', req, ctx);
export const registrations: Handler = (req, ctx) => list('registrations', req, ctx);
