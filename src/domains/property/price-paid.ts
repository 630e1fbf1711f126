/**
 * /v1/property/price-paid/* answered from the local mirror (price_paid.duckdb, see sync/price-paid.ts).
 *
 * Rules (docs/mirror.md "Price paid: query rules"):
 *  - postcode: normalised (upper case, one space before the inward code). A full postcode matches exactly;
 *    an outward code (`LS8`, `SW1A`) matches that outward code only (`B1` never matches `B10 …`), and an
 *    outward code ending in a digit also matches its lettered sub-districts (`SW1` → `SW1A …`, `E1` → `E1W …`);
 *    an area (`LS`) matches `LS<digit>…`; a sector (`LS8 3`) or any other value matches as a prefix.
 *  - town, district, street: case-insensitive exact match (upper-cased; spaces collapsed).
 *  - number: equals the PAON or the SAON (case-insensitive).
 *  - property_type: detached=D, semi_detached=S, terraced=T, flat=F. Type O ('other': commercial or
 *    otherwise unclassified, only in category B) is listed as `other` and counted in statistics, but no
 *    property_type filter selects it.
 *  - order: newest first (date descending), then transaction id ascending. 25 per page.
 *  - address: `SAON, PAON STREET, LOCALITY, TOWN`, empty parts left out; the PAON is joined to the street
 *    with a space when it ends in a house number (`12`, `272B`, `12-14`, `MAXWELL COURT, 8`), else with
 *    ", " (`THE OLD RECTORY, BIDSTON ROAD`); the locality is left out when it equals the town.
 *    E.g. SAON `FLAT 3`, PAON `12`, street `DOWNING STREET`, town `LONDON` → `FLAT 3, 12 DOWNING STREET, LONDON`.
 */
import { ApiError, errors } from '../../contract/errors.js';
import { classifyPostcode, normText, postcodeCondition } from '../../mirror/postcode.js';
import type { Handler, HandlerContext, Meta, SuccessEnvelope } from '../../contract/types.js';
import { openDataset, pagedQuery, provenanceMeta, query, Where, type Param } from '../../mirror/db.js';
import { divRoundBig } from '../../money.js';
import { PRICE_PAID_INFO } from './datasets.js';

const DATASET = PRICE_PAID_INFO;
export const PER_PAGE = 25;

export const TYPE_CODES = { detached: 'D', semi_detached: 'S', terraced: 'T', flat: 'F' } as const;
const TYPE_NAMES: Record<string, string> = { D: 'detached', S: 'semi_detached', T: 'terraced', F: 'flat', O: 'other' };
const TENURE: Record<string, string> = { F: 'freehold', L: 'leasehold', U: 'unknown' };

interface DbRow {
  id: string;
  price: number;
  date: string;
  postcode: string | null;
  property_type: string;
  old_new: string;
  duration: string;
  paon: string | null;
  saon: string | null;
  street: string | null;
  locality: string | null;
  town: string | null;
  district: string | null;
  county: string | null;
  ppd_category: string;
  [k: string]: unknown;
}

export interface TransactionItem {
  id: string;
  price: number;
  date: string;
  postcode: string | null;
  property_type: string;
  new_build: boolean;
  tenure: string;
  address: string;
}

export interface TransactionDetail extends TransactionItem {
  paon: string | null;
  saon: string | null;
  street: string | null;
  locality: string | null;
  town: string | null;
  district: string | null;
  county: string | null;
  /**
   * The estate in land: HM Land Registry's linked-data name (`estateType`) for the same published field
   * as `tenure` (the CSV's Duration column): `freehold` or `leasehold`; `unknown` where the file says U
   * (as `tenure`: the spec types both as a string), with a meta.note.
   */
  estate_type: 'freehold' | 'leasehold' | 'unknown';
  /** A: standard price paid entry; B: additional (repossessions, buy-to-let, non-private buyers, ...). */
  ppd_category: string;
}

const ESTATE: Record<string, 'freehold' | 'leasehold'> = { F: 'freehold', L: 'leasehold' };
const ESTATE_NOTE =
  "estate_type is unknown: HM Land Registry publishes this sale's tenure (Duration) as U, unknown (estate_type is the linked-data name of the same field).";

const HOUSE_NUMBER_END = /(^|[\s,])\d+[A-Z]?(\s*-\s*\d+[A-Z]?)?$/;

/** The one-line address (rule in the header comment). */
export function formatAddress(r: Pick<DbRow, 'paon' | 'saon' | 'street' | 'locality' | 'town'>): string {
  const parts: string[] = [];
  if (r.saon) parts.push(r.saon);
  let line = '';
  if (r.paon && r.street) line = HOUSE_NUMBER_END.test(r.paon) ? `${r.paon} ${r.street}` : `${r.paon}, ${r.street}`;
  else line = r.paon ?? r.street ?? '';
  if (line) parts.push(line);
  if (r.locality && r.locality !== r.town) parts.push(r.locality);
  if (r.town) parts.push(r.town);
  return parts.join(', ');
}

/**
 * JavaScript's `\s` (HOUSE_NUMBER_END) as an RE2 class body: RE2's `\s` is ASCII only, without \v
 * and without the no-break and other Unicode spaces.
 */
const JS_SPACE_RE2 = String.raw`\t\n\x{0B}\f\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}`;
/** HOUSE_NUMBER_END for DuckDB's regexp_matches (RE2: `$` is the end of the text, as without the m flag). */
const HOUSE_NUMBER_END_RE2 = `(^|[${JS_SPACE_RE2},])[0-9]+[A-Z]?([${JS_SPACE_RE2}]*-[${JS_SPACE_RE2}]*[0-9]+[A-Z]?)?$`;

/**
 * A VARCHAR column as the JavaScript path reads it: @duckdb/node-api decodes strings with a default
 * TextDecoder, which drops a leading U+FEFF (byte order mark) from every value.
 */
const asRead = (c: string) => `(CASE WHEN starts_with(${c}, chr(65279)) THEN substr(${c}, 2) ELSE ${c} END)`;

/** formatAddress as an SQL expression over these VARCHAR expressions (concat_ws leaves out NULL parts). */
const addressSql = (saon: string, paon: string, street: string, locality: string, town: string) => `concat_ws(', ',
    CASE WHEN ${saon} <> '' THEN ${saon} END,
    NULLIF(CASE WHEN ${paon} <> '' AND ${street} <> ''
      THEN CASE WHEN regexp_matches(${paon}, '${HOUSE_NUMBER_END_RE2}') THEN ${paon} || ' ' || ${street} ELSE ${paon} || ', ' || ${street} END
      ELSE coalesce(${paon}, ${street}, '') END, ''),
    CASE WHEN ${locality} <> '' AND ${locality} IS DISTINCT FROM ${town} THEN ${locality} END,
    CASE WHEN ${town} <> '' THEN ${town} END)`;

/** The address of a price_paid row in SQL: `formatAddress` of its columns as JavaScript reads them. */
export const ADDRESS_SQL = addressSql(asRead('saon'), asRead('paon'), asRead('street'), asRead('locality'), asRead('town'));

const sqlCase = (col: string, map: Record<string, string>, other: string) =>
  `CASE ${col} ${Object.entries(map).map(([k, v]) => `WHEN '${k}' THEN '${v}'`).join(' ')} ELSE '${other}' END`;

/**
 * `item` as an SQL select list over price_paid (same keys, same order, values the converter turns into
 * what `item` gives): `--all` in NDJSON or CSV has DuckDB render the records (db.ts `streamRendered`).
 * property_type, old_new and duration hold only the codes the sync accepts.
 */
export const ITEM_SQL = `id::VARCHAR AS id, price, date, ${asRead('postcode')} AS postcode,
  ${sqlCase('property_type', TYPE_NAMES, 'other')} AS property_type,
  coalesce(old_new = 'Y', false) AS new_build,
  ${sqlCase('duration', TENURE, 'unknown')} AS tenure,
  ${ADDRESS_SQL} AS address`;

function item(r: DbRow): TransactionItem {
  return {
    id: r.id,
    price: r.price,
    date: r.date,
    postcode: r.postcode,
    property_type: TYPE_NAMES[r.property_type] ?? 'other',
    new_build: r.old_new === 'Y',
    tenure: TENURE[r.duration] ?? 'unknown',
    address: formatAddress(r),
  };
}

function detail(r: DbRow): TransactionDetail {
  return {
    ...item(r),
    paon: r.paon,
    saon: r.saon,
    street: r.street,
    locality: r.locality,
    town: r.town,
    district: r.district,
    county: r.county,
    estate_type: ESTATE[r.duration] ?? 'unknown',
    ppd_category: r.ppd_category,
  };
}

const COLUMNS = `id::VARCHAR AS id, price, date, postcode, property_type, old_new, duration, paon, saon, street,
  locality, town, district, county, ppd_category`;
const SELECT = `SELECT ${COLUMNS} FROM price_paid`;


function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

function dateRange(w: Where, q: Record<string, unknown>): void {
  const from = str(q.from);
  const to = str(q.to);
  // from <= to is the route spec's (`notBefore`), checked before the mirror is opened
  if (from) w.add('date >= CAST(? AS DATE)', from);
  if (to) w.add('date <= CAST(? AS DATE)', to);
}

interface PagedData {
  transactions: TransactionItem[];
  pagination: { page: number; per_page: number; total: number };
}

/** What a list of transactions reads and how it makes its records, in JavaScript (`map`) and in SQL (`record`). */
export const ITEM_QUERY = { from: 'price_paid', columns: COLUMNS, orderBy: 'date DESC, id ASC', map: item, record: ITEM_SQL };

async function pagedList(ctx: HandlerContext, w: Where, page: number): Promise<SuccessEnvelope<PagedData>> {
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const { from, columns, orderBy, map, record } = ITEM_QUERY;
  const { rows, total } = await pagedQuery<DbRow>(conn, {
    from, columns, where: w, orderBy, page, perPage: PER_PAGE, stream: { sink: ctx.sink, map, record },
  });
  const meta: Meta = await provenanceMeta(DATASET, conn);
  return { data: { transactions: rows.map(item), pagination: { page, per_page: PER_PAGE, total } }, meta };
}

/**
 * The route layer (src/contract/validate.ts) requires one of postcode/town/district but lets a blank value
 * ('  ') through; a blank filter must not mean "no filter" (a scan of every sale), so it counts as missing.
 */
function areaFilter(q: Record<string, unknown>): { postcode?: string; town?: string; district?: string } {
  const postcode = str(q.postcode);
  const town = str(q.town);
  const district = str(q.district);
  if (!postcode && !town && !district) {
    throw errors.invalidParameter("One of 'postcode', 'town', 'district' is required.");
  }
  return { ...(postcode ? { postcode } : {}), ...(town ? { town } : {}), ...(district ? { district } : {}) };
}

/** GET /v1/property/price-paid/search?postcode|town|district[&property_type][&page] (validated by the route) */
export const pricePaidSearch: Handler = async (req, ctx) => {
  const q = req.query;
  const w = new Where();
  const { postcode, town, district } = areaFilter(q);
  if (postcode) {
    const c = postcodeCondition(postcode);
    w.add(c.sql, ...c.params);
  }
  if (town) w.add('town = ?', normText(town));
  if (district) w.add('district = ?', normText(district));
  // property_type is one of the route's enum values (TYPE_CODES' keys)
  if (q.property_type !== undefined) w.add('property_type = ?', TYPE_CODES[q.property_type as keyof typeof TYPE_CODES]);
  return pagedList(ctx, w, Number(q.page));
};

/** GET /v1/property/price-paid/address?street[&number][&postcode][&town][&from][&to][&page] */
export const pricePaidAddress: Handler = async (req, ctx) => {
  const q = req.query;
  // street is required by the route; a blank one ('  ') is missing too (see areaFilter)
  const street = str(q.street);
  if (!street) throw errors.invalidParameter("Missing required parameter 'street'.");
  const w = new Where().add('street = ?', normText(street));
  const number = str(q.number);
  if (number) w.add('(paon = ? OR saon = ?)', normText(number), normText(number));
  const postcode = str(q.postcode);
  if (postcode) {
    const c = postcodeCondition(postcode);
    w.add(c.sql, ...c.params);
  }
  const town = str(q.town);
  if (town) w.add('town = ?', normText(town));
  dateRange(w, q);
  return pagedList(ctx, w, Number(q.page));
};

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Transaction id as stored: braces stripped, lower case; undefined when it is not a UUID. */
export function normaliseId(raw: string): string | undefined {
  const id = raw.trim().replace(/^\{|\}$/g, '').toLowerCase();
  return UUID_RE.test(id) ? id : undefined;
}

/** GET /v1/property/price-paid/{id} */
export const pricePaidGet: Handler = async (req, ctx) => {
  const raw = String(req.params.id ?? '');
  const id = normaliseId(raw);
  const notFound = () => new ApiError(404, 'not_found', `Transaction '${raw}' not found.`);
  if (!id) throw notFound();
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  // price_paid_ids (sorted on id) gives the postcode; the postcode-sorted main table is then read
  // through its zonemaps. Files without the lookup table fall back to a scan of the id column.
  let rows: DbRow[];
  let loc: Array<{ postcode: string | null }> | undefined;
  try {
    loc = await query<{ postcode: string | null }>(conn, 'SELECT postcode FROM price_paid_ids WHERE id = CAST(? AS UUID) LIMIT 1', [id]);
  } catch {
    loc = undefined;
  }
  if (loc && !loc[0]) throw notFound();
  if (loc) {
    const pc = loc[0]!.postcode;
    rows = pc === null
      ? await query<DbRow>(conn, `${SELECT} WHERE postcode IS NULL AND id = CAST(? AS UUID) LIMIT 1`, [id])
      : await query<DbRow>(conn, `${SELECT} WHERE postcode = ? AND id = CAST(? AS UUID) LIMIT 1`, [pc, id]);
  } else {
    rows = await query<DbRow>(conn, `${SELECT} WHERE id = CAST(? AS UUID) LIMIT 1`, [id]);
  }
  if (!rows[0]) throw notFound();
  const d = detail(rows[0]);
  const meta = await provenanceMeta(DATASET, conn);
  return { data: d, meta: d.estate_type === 'unknown' ? { ...meta, note: ESTATE_NOTE } : meta };
};

interface StatsRow {
  property_type: string | null;
  n: number;
  /** sum(price) as HUGEINT text: the average is computed exactly from it (integer pounds). */
  total: string | null;
  median: number | null;
  min: number | null;
  max: number | null;
  [k: string]: unknown;
}

/** Whole pounds, half up: the mean from the exact sum, the median from quantile_cont (an integer or a half). */
const meanPounds = (r: StatsRow | undefined): number | null =>
  r && r.n > 0 && r.total !== null ? Number(divRoundBig(BigInt(r.total), BigInt(r.n), 'half-up')) : null;
const medianPounds = (r: StatsRow | undefined): number | null => (r?.median === null || r?.median === undefined ? null : Math.round(r.median));

/** The spec's `by_type` keys (spec doc 2 "Sold-price statistics"): type O ('other') is in `overall` only. */
const STAT_TYPES = ['flat', 'terraced', 'detached', 'semi_detached'] as const;

/**
 * GET /v1/property/price-paid/statistics?postcode|town|district[&from][&to], in the spec's shape (doc 2
 * "Sold-price statistics"): `area` echoes the area queried (normalised: the postcode as classified, the
 * town or district upper-cased; several filters joined with ", "), `transaction_count`, `overall`
 * {average, median, min, max} and `by_type.<type>` {average, median, count}. Averages are exact (integer
 * sum / count, half up), medians are quantile_cont rounded half up, both in whole pounds.
 */
export const pricePaidStatistics: Handler = async (req, ctx) => {
  const q = req.query;
  const { postcode, town, district } = areaFilter(q);
  const w = new Where();
  const area: string[] = [];
  if (postcode) {
    const c = postcodeCondition(postcode);
    w.add(c.sql, ...c.params);
    const m = classifyPostcode(postcode);
    area.push(m.kind === 'full' ? m.postcode : m.kind === 'outward' ? m.outward : m.kind === 'area' ? m.area : m.prefix);
  }
  if (town) {
    w.add('town = ?', normText(town));
    area.push(normText(town));
  }
  if (district) {
    w.add('district = ?', normText(district));
    area.push(normText(district));
  }
  dateRange(w, q);
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const rows = await query<StatsRow>(
    conn,
    `SELECT property_type, count(*)::INTEGER AS n, sum(price)::HUGEINT::VARCHAR AS total, quantile_cont(price, 0.5) AS median, min(price) AS min, max(price) AS max
     FROM price_paid ${w.sql}
     GROUP BY GROUPING SETS ((property_type), ())`,
    w.params,
  );
  const overall = rows.find((r) => r.property_type === null); // the () grouping set
  const byType: Record<string, { average: number | null; median: number | null; count: number }> = {};
  for (const name of STAT_TYPES) {
    const r = rows.find((x) => x.property_type === TYPE_CODES[name]);
    byType[name] = { average: meanPounds(r), median: medianPounds(r), count: r?.n ?? 0 };
  }
  const other = rows.find((r) => r.property_type === 'O')?.n ?? 0;
  const from = str(q.from);
  const to = str(q.to);
  const meta = await provenanceMeta(DATASET, conn);
  return {
    data: {
      area: area.join(', '),
      ...(from || to ? { period: { from: from ?? null, to: to ?? null } } : {}),
      transaction_count: overall?.n ?? 0,
      overall: { average: meanPounds(overall), median: medianPounds(overall), min: overall?.min ?? null, max: overall?.max ?? null },
      by_type: byType,
    },
    meta: other
      ? { ...meta, note: `overall includes ${other} sale(s) of type 'other' (commercial or unclassified, category B), which by_type does not list` }
      : meta,
  };
};
