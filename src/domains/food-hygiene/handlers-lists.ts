/**
 * Local handlers of /v1/food-hygiene/authorities, /business-types and /statistics.
 *
 * Statistics: `by_rating` counts every rating value of the schemes the area's establishments are rated
 * under, 0 where none has it (spec order: 5 to 0, then the other values; `none` for a file without one);
 * `share_4_or_5` is FHRS numeric ratings of 4 or 5 over all FHRS numeric ratings, rounded to 4 decimal
 * places, null when there are none (FHIS areas); `average_scores` are the means of the published scores
 * (lower is better), rounded to 2 decimal places, null when no establishment has scores (FHIS).
 */
import { pagination } from '../../contract/envelope.js';
import type { Handler } from '../../contract/types.js';
import { loadJsonFile } from '../../data.js';
import { openDataset, query, queryOne, Where } from '../../mirror/db.js';
import { FOOD_HYGIENE_INFO } from './datasets.js';
import { RATING_VALUES } from './routes.js';
import { addAuthorityFilter, addPostcodeFilter, foodMeta, knownAuthority } from './shape.js';

const DATASET = FOOD_HYGIENE_INFO;

export const listAuthorities: Handler = async (req, ctx) => {
  const page = Number(req.query.page ?? 1);
  const perPage = Number(req.query.per_page ?? 25);
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const total = (await queryOne<{ n: number }>(conn, 'SELECT count(*) AS n FROM authorities'))?.n ?? 0;
  const rows = await query(
    conn,
    `SELECT code, name, scheme, establishments AS establishment_count, strftime(extract_date, '%Y-%m-%d') AS extract_date,
            region, item_count AS published_count, last_published
     FROM authorities ORDER BY lower(name), CAST(code AS INTEGER) LIMIT ? OFFSET ?`,
    [perPage, (page - 1) * perPage],
  );
  const data = rows.map((r) => ({
    code: String(r.code),
    name: r.name ?? null,
    scheme: r.scheme ?? null,
    establishment_count: Number(r.establishment_count),
    extract_date: r.extract_date ?? null,
    region: r.region ?? null,
    published_count: r.published_count === null ? null : Number(r.published_count),
    last_published: r.last_published ?? null,
  }));
  return {
    data,
    meta: await foodMeta(conn, {
      fields: 'establishment_count: establishments the mirror holds from the authority; published_count: the ItemCount of its file header',
    }),
    pagination: pagination(total, page, perPage),
  };
};

export const listBusinessTypes: Handler = async (_req, ctx) => {
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  // one name per id: the most common spelling (files may differ), ties to the first alphabetically
  const rows = await query(
    conn,
    `SELECT business_type_id, first(business_type ORDER BY n DESC, business_type) AS business_type, sum(n) AS establishment_count
     FROM (SELECT business_type_id, business_type, count(*) AS n FROM establishments WHERE business_type_id IS NOT NULL GROUP BY ALL)
     GROUP BY business_type_id ORDER BY business_type_id`,
  );
  const data = rows.map((r) => ({
    business_type_id: Number(r.business_type_id),
    business_type: r.business_type ?? null,
    establishment_count: Number(r.establishment_count),
  }));
  return { data, meta: await foodMeta(conn) };
};

/** The rating values and the schemes that use each (data/food-hygiene/rating-values.json). */
let schemesOf: readonly { value: string; schemes: readonly string[] }[] | undefined;
const ratingSchemes = () => (schemesOf ??= loadJsonFile<{ values: { value: string; schemes: string[] }[] }>('food-hygiene/rating-values.json').values);

const round = (n: number, dp: number): number => Math.round(n * 10 ** dp) / 10 ** dp;

export const statistics: Handler = async (req, ctx) => {
  const q = req.query;
  const where = new Where();
  let area = 'all';
  if (typeof q.local_authority === 'string') {
    addAuthorityFilter(where, q.local_authority);
  } else if (typeof q.postcode === 'string') {
    addPostcodeFilter(where, q.postcode);
    area = q.postcode;
  }
  if (q.business_type_id !== undefined) where.add('business_type_id = ?', Number(q.business_type_id));
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  // The authority named as the user knows it: its name, not its code (several that a name matches: each)
  const authorities = typeof q.local_authority === 'string' ? await knownAuthority(conn, q.local_authority) : undefined;
  if (authorities) area = [...authorities.loaded, ...authorities.notLoaded].map((a) => a.name ?? a.code).join(', ');
  // authorities on the FSA's list that the mirror holds no file of: no figures, not a count of 0 (meta.note
  // names the sync that loads them)
  if (authorities && !authorities.loaded.length) {
    return {
      data: { area, establishment_count: null, by_rating: null, share_4_or_5: null, average_scores: null },
      meta: await foodMeta(conn, {}, authorities),
    };
  }
  const counts = await query<{ rating_value: string | null; n: number }>(
    conn, `SELECT rating_value, count(*) AS n FROM establishments ${where.sql} GROUP BY rating_value`, where.params,
  );
  // Every value of the schemes the area's establishments are rated under, 0 where none has it, so a CSV
  // or table has one column per rating whatever the area holds (an FHIS value is absent for an FHRS area).
  const schemes = (await query<{ scheme: string }>(conn, `SELECT DISTINCT scheme FROM establishments ${where.sql}`, where.params)).map((r) => r.scheme);
  for (const v of ratingSchemes()) if (v.schemes.some((sc) => schemes.includes(sc)) && !counts.some((c) => c.rating_value === v.value)) counts.push({ rating_value: v.value, n: 0 });
  const agg = (await queryOne<{ n: number; numeric: number; top: number; scored: number; h: number | null; s: number | null; c: number | null }>(
    conn,
    `SELECT count(*) AS n, count(rating_numeric) AS numeric, count(*) FILTER (WHERE rating_numeric >= 4) AS top,
            count(*) FILTER (WHERE hygiene IS NOT NULL OR structural IS NOT NULL OR confidence_in_management IS NOT NULL) AS scored,
            avg(hygiene) AS h, avg(structural) AS s, avg(confidence_in_management) AS c
     FROM establishments ${where.sql}`,
    where.params,
  ))!;
  const order = (v: string | null): number => {
    if (v === null) return 999;
    const i = RATING_VALUES.indexOf(v as (typeof RATING_VALUES)[number]);
    return i < 0 ? 500 : i <= 5 ? 5 - i : i;
  };
  const byRating: Record<string, number> = {};
  for (const c of [...counts].sort((a, b) => order(a.rating_value) - order(b.rating_value) || String(a.rating_value).localeCompare(String(b.rating_value)))) {
    byRating[c.rating_value ?? 'none'] = Number(c.n);
  }
  const avg = (v: number | null): number | null => (v === null || v === undefined ? null : round(Number(v), 2));
  return {
    data: {
      area,
      establishment_count: Number(agg.n),
      by_rating: byRating,
      share_4_or_5: Number(agg.numeric) > 0 ? round(Number(agg.top) / Number(agg.numeric), 4) : null,
      average_scores: Number(agg.scored) > 0 ? { hygiene: avg(agg.h), structural: avg(agg.s), confidence_in_management: avg(agg.c) } : null,
    },
    meta: await foodMeta(conn, {}, authorities),
  };
};
