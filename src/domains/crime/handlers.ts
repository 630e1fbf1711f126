/**
 * /v1/crime offline, over the mirror's crime.duckdb (./sync.ts). Shapes: spec doc 4 "Street-level crime".
 * Every answer's meta carries `coverage` (the months loaded) and the caveat on anonymised locations.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { meta, pagination } from '../../contract/envelope.js';
import { ApiError } from '../../contract/errors.js';
import type { Handler, Meta } from '../../contract/types.js';
import { openDataset, pagedQuery, provenanceMeta, query, queryOne, type Row, Where } from '../../mirror/db.js';
import { addArea, addMonths, type Area, areaEcho, areaOf, type Coverage, monthsOf, radiusOf } from './area.js';
import { CRIME_INFO } from './datasets.js';
import { areaMonths, forceStreetMonths, monthRuns } from './months.js';
import { categoryMap, forceList } from './reference.js';

const DATASET = CRIME_INFO;

export const CRIME_CAVEAT =
  'Locations are anonymised: each crime is mapped to a snap point (the centre of a street, a public place or a ' +
  'point of interest) near where it happened, never the exact address, and a snap point covers a minimum number ' +
  "of postal addresses. Crimes the force could not map have a null location ('No Location') and are counted only " +
  'in force areas. Scotland is covered only by British Transport Police; Northern Ireland has no outcomes.';

const covCache = new WeakMap<DuckDBConnection, Promise<Coverage & { unmapped: number }>>();
function coverage(conn: DuckDBConnection): Promise<Coverage & { unmapped: number }> {
  let p = covCache.get(conn);
  if (!p) {
    p = queryOne<Coverage & { unmapped: number } & Row>(
      conn,
      'SELECT min(month) AS "from", max(month) AS "to", (SELECT count(*) FROM unmapped_categories) AS unmapped FROM coverage',
    ).then((r) => r ?? { from: null, to: null, unmapped: 0 });
    covCache.set(conn, p);
  }
  return p;
}

async function crimeMeta(conn: DuckDBConnection, extra: Record<string, unknown> = {}): Promise<Meta> {
  const cov = await coverage(conn);
  const notes: string[] = [];
  if (typeof extra.note === 'string') notes.push(extra.note);
  if (cov.unmapped > 0) {
    notes.push('Some rows have a Crime type the category map does not know: their category is null and category_label is as published.');
  }
  return provenanceMeta(DATASET, conn, {
    ...extra,
    coverage: { from: cov.from, to: cov.to },
    caveat: CRIME_CAVEAT,
    ...(notes.length ? { note: notes.join(' ') } : {}),
  });
}

/** A note when the months asked for lie outside the months loaded (the answer is then empty, not an error). */
function outsideNote(m: { from: string | null; to: string | null }, cov: Coverage): string | undefined {
  if (cov.from === null || cov.to === null) return 'The mirror holds no months.';
  if ((m.to !== null && m.to < cov.from) || (m.from !== null && m.from > cov.to)) {
    return `The months asked for are outside the months loaded (${cov.from} to ${cov.to}); sync a newer archive or more months (--months).`;
  }
  return undefined;
}

const STREET_COLUMNS = `crime_id, month, category, category_label, force, reported_by, falls_within, latitude, longitude, location,
  lsoa_code, lsoa_name, last_outcome`;

/** A `street` row as the API's street crime. */
export function streetRecord(r: Row): Record<string, unknown> {
  const hasPoint = r.latitude !== null && r.longitude !== null;
  return {
    crime_id: r.crime_id ?? null,
    month: r.month,
    category: r.category ?? null,
    category_label: r.category_label,
    force: r.force,
    reported_by: r.reported_by ?? null,
    falls_within: r.falls_within ?? null,
    location: hasPoint ? { latitude: r.latitude, longitude: r.longitude, description: r.location ?? null } : null,
    lsoa: r.lsoa_code ? { code: r.lsoa_code, name: r.lsoa_name ?? null } : null,
    last_outcome: r.last_outcome ?? null,
    // rounded to the metre in SQL (src/mirror/geo.ts radiusSearch)
    ...(r.distance_km !== undefined ? { distance_km: r.distance_km === null ? null : Number(r.distance_km) } : {}),
  };
}

/**
 * A force that matches nothing (not one of data/crime/forces.json, nor loaded) is 404 naming the command
 * that lists the forces (issue 37: it answered as a real 0). A known force not loaded answers with null
 * figures and the sync that loads it (months.ts areaMonths).
 */
async function knownForce(conn: DuckDBConnection, area: Area): Promise<void> {
  if (area.kind !== 'force') return;
  if (forceList().forces.some((f) => f.force === area.force)) return;
  const loaded = await queryOne<{ n: number }>(conn, 'SELECT count(*) AS n FROM forces WHERE force = ?', [area.force]);
  if (Number(loaded?.n ?? 0) > 0) return;
  throw new ApiError(404, 'not_found', `No police force '${area.force}': 'publicdata crime forces' lists the forces loaded (GET /v1/crime/forces); the published ones are in data/crime/forces.json (slugs such as 'kent', 'metropolitan').`);
}

async function areaWhere(conn: DuckDBConnection, area: Area, months: { from: string | null; to: string | null }): Promise<Where> {
  await knownForce(conn, area);
  const where = new Where();
  await addArea(conn, where, area);
  addMonths(where, months);
  return where;
}

export const street: Handler = async (req, ctx) => {
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const cov = await coverage(conn);
  const area = areaOf(req.query);
  const months = monthsOf(req.query, cov);
  const where = await areaWhere(conn, area, months);
  const cats = req.query.category as string[] | undefined;
  if (cats?.length) where.add(`category IN (${cats.map(() => '?').join(', ')})`, ...cats);
  const page = Number(req.query.page ?? 1);
  const perPage = Number(req.query.per_page ?? 25);
  const radius = area.kind === 'point' ? radiusOf(area) : null;
  const columns = radius ? `${STREET_COLUMNS}, ${radius.select}` : STREET_COLUMNS;
  const selectParams = radius ? radius.selectParams : [];
  const then = 'force, lsoa_code NULLS LAST, location, category_label, crime_id NULLS LAST, last_outcome NULLS LAST';
  const order = `month DESC, ${radius ? radius.orderBy(then) : then}`;
  // --all on the local backend: one streamed query from this page on; a radius's matches are few (at
  // most 5 km around a point): their total rides on the page's query (pagedQuery's totalInPage)
  const { rows, total } = await pagedQuery(conn, {
    from: 'street', columns, columnParams: selectParams, where, orderBy: order, page, perPage,
    totalInPage: radius !== null, stream: { sink: ctx.sink, map: streetRecord },
  });
  const note = outsideNote(months, cov) ?? (await areaMonths(conn, area, months, cov, 'list')).note;
  const m = await crimeMeta(conn, { months, area: areaEcho(area), ...(note ? { note } : {}) });
  return { data: rows.map(streetRecord), meta: m, pagination: pagination(total, page, perPage) };
};

export const outcomes: Handler = async (req, ctx) => {
  const id = String(req.params.crime_id).toLowerCase();
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const outs = await query<{ month: string; outcome: string; force: string; latitude: number | null; longitude: number | null; location: string | null; lsoa_code: string | null; lsoa_name: string | null }>(
    conn,
    'SELECT month, outcome, force, latitude, longitude, location, lsoa_code, lsoa_name FROM outcomes WHERE crime_id = ? ORDER BY month, outcome',
    [id],
  );
  const rows = await query(conn, `SELECT ${STREET_COLUMNS} FROM street WHERE crime_id = ? ORDER BY month, last_outcome NULLS LAST`, [id]);
  if (!rows.length && !outs.length) {
    const cov = await coverage(conn);
    throw new ApiError(404, 'not_found', `Crime '${id}' not found in the street or outcomes files of ${cov.from} to ${cov.to}.`);
  }
  const notes: string[] = [];
  let head: Record<string, unknown>;
  if (rows.length) {
    const s = streetRecord(rows[0]!);
    head = { crime_id: id, category: s.category, category_label: s.category_label, month: s.month, location: s.location, lsoa: s.lsoa, force: s.force, last_outcome: s.last_outcome };
    if (rows.length > 1) {
      notes.push(
        `This Crime ID stands on ${rows.length} rows of the street files (as published); category, month and location are those of the first ` +
          '(oldest month, then last outcome); street_records lists them all.',
      );
      head.street_records = rows.map(streetRecord);
    }
  } else {
    const o = outs[0]!;
    head = {
      crime_id: id, category: null, category_label: null, month: null,
      location: o.latitude !== null && o.longitude !== null ? { latitude: o.latitude, longitude: o.longitude, description: o.location } : null,
      lsoa: o.lsoa_code ? { code: o.lsoa_code, name: o.lsoa_name } : null,
    };
    notes.push(await streetNotHeldNote(conn, outs));
  }
  const data = { ...head, outcomes: outs.map((o) => ({ month: o.month, outcome: o.outcome })) };
  return { data, meta: await crimeMeta(conn, notes.length ? { note: notes.join(' ') } : {}) };
};

/**
 * The note of a crime known only from outcome rows: what the mirror holds of the outcome rows' force(s)
 * street files (the street record is in one of them, in a month up to the first outcome's).
 */
async function streetNotHeldNote(conn: DuckDBConnection, outs: ReadonlyArray<{ month: string; force: string }>): Promise<string> {
  const first = outs.map((o) => o.month).sort()[0]!;
  const parts: string[] = [];
  for (const force of [...new Set(outs.map((o) => o.force))].sort()) {
    const held = await forceStreetMonths(conn, force);
    parts.push(
      held.length
        ? `the street files of ${force} (the force of the outcome rows) are loaded for ${monthRuns(held)}, and none has this Crime ID: its street record is in a month of ${force} that is not loaded, up to ${first} (its first outcome's month)`
        : `no street file of ${force} (the force of the outcome rows) is loaded, so its street record is not`,
    );
  }
  return `This crime is known only from outcome rows: ${parts.join('; ')}. Category and month are null; the location is the outcome file's.`;
}

export const statistics: Handler = async (req, ctx) => {
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const cov = await coverage(conn);
  const area = areaOf(req.query);
  const months = monthsOf(req.query, cov);
  const where = await areaWhere(conn, area, months);
  const p = where.params;
  const byCategory = await query<{ category: string | null; category_label: string; count: number }>(
    conn,
    `SELECT category, category_label, count(*) AS count FROM street ${where.sql} GROUP BY ALL ORDER BY count DESC, category_label`,
    p,
  );
  const byMonthRows = await query<{ month: string; count: number }>(conn, `SELECT month, count(*) AS count FROM street ${where.sql} GROUP BY month`, p);
  const byOutcome = await query<{ outcome: string | null; count: number }>(
    conn,
    `SELECT last_outcome AS outcome, count(*) AS count FROM street ${where.sql} GROUP BY ALL ORDER BY count DESC, outcome NULLS LAST`,
    p,
  );
  // every month of the range held for the area (one of its forces loaded), with 0 where it had no crime;
  // a month not held is left out and named in meta.note (months.ts)
  const held = await areaMonths(conn, area, months, cov, 'by_month');
  const counts = new Map(byMonthRows.map((r) => [r.month, r.count]));
  const byMonth = held.held.map((month) => ({ month, count: counts.get(month) ?? 0 }));
  const note = outsideNote(months, cov) ?? held.note;
  // no month of the range is held for the area (its force not loaded, or no month asked loaded): there is
  // no figure to give, and 0 would read as "no crime" (issue 37); meta.note says why and what loads it
  const none = held.held.length === 0;
  const total = none ? null : byCategory.reduce((s, r) => s + r.count, 0);
  const data = none
    ? { area: areaEcho(area), months, total, by_category: null, by_month: null, by_outcome: null }
    : { area: areaEcho(area), months, total, by_category: byCategory, by_month: byMonth, by_outcome: byOutcome };
  return { data, meta: await crimeMeta(conn, { ...(note ? { note } : {}), by_outcome: 'last outcome category of each street row as published (null: none, e.g. anti-social behaviour)' }) };
};

export const categories: Handler = async () => {
  const map = categoryMap();
  return {
    data: map.categories.map((c) => ({ category: c.category, label: c.label })),
    meta: meta({ source: 'data.police.uk', source_url: map.source_url, as_of: map.as_of, caveat: CRIME_CAVEAT }),
  };
};

export const forces: Handler = async (_req, ctx) => {
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const rows = await query<{ force: string; name: string; month_from: string; month_to: string; street_count: number }>(
    conn,
    'SELECT force, name, month_from, month_to, street_count FROM forces ORDER BY force',
  );
  const data = rows.map((r) => ({ force: r.force, name: r.name, months: { from: r.month_from, to: r.month_to }, street_count: r.street_count }));
  return { data, meta: await crimeMeta(conn) };
};
