/**
 * Local handlers of /v1/earnings (spec doc 4 "Earnings") over earnings.duckdb.
 *  - regions (Tables 7 workplace / 8 residence), industries (Table 4), occupations (Table 14): earnings
 *    records filtered by year (default the newest loaded for the table and measure), code or name
 *    substring, level, population and measure; ONS's row order; paged.
 *  - percentile: where an amount sits among the published percentiles of one record (percentile.ts).
 * meta: licence, source, source_url, as_of (the month of the reference period answered from, `2025-04`),
 * `ons_table`, `reference_period` (April of the year), and `note` where the data cannot give what was asked.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { pagination } from '../../contract/envelope.js';
import { ApiError } from '../../contract/errors.js';
import type { Handler, HandlerRequest } from '../../contract/types.js';
import { openDataset, pagedQuery, provenanceMeta, queryOne, Where } from '../../mirror/db.js';
import { socVersion, type Family } from './codes.js';
import { missingOf, placeAmount } from './percentile.js';
import { EARNINGS_INFO } from './datasets.js';
import { asOf, COLUMNS, loadedYears, resolveYear, toRecord, type EarningsRow } from './records.js';
import type { Basis, Measure } from './routes.js';

const TABLE_NAMES: Record<string, string> = {
  '7': 'ASHE Table 7 (place of work)',
  '8': 'ASHE Table 8 (place of residence)',
  '4': 'ASHE Table 4 (industry)',
  '14': 'ASHE Table 14 (occupation)',
};

/** Which filter value is a code rather than a name substring, per family. */
const CODE_RE: Record<Family, RegExp> = {
  geography: /^[A-Za-z]\d{8}$/,
  industry: /^([A-Za-z]|\d{2})$/,
  occupation: /^\d{1,4}$/,
};

/** meta.note of an occupation answer for a year coded in SOC 2010 (docs/earnings.md "SOC 2010 → SOC 2020"). */
const socNote = (year: number) => `${year} occupations are coded in SOC 2010, not SOC 2020: codes and names differ from 2021 on.`;

interface ListSpec {
  family: Family;
  filter: 'geography' | 'industry' | 'occupation';
  table(req: HandlerRequest): string;
}

function listHandler(spec: ListSpec): Handler {
  return async (req, ctx) => {
    const q = req.query;
    const measure = q.measure as Measure;
    const table = spec.table(req);
    const conn = await openDataset(EARNINGS_INFO, ctx.mirrorDir);
    const year = await resolveYear(conn, table, measure, q.year, `${TABLE_NAMES[table]} ${measure}`);
    const page = q.page as number;
    const perPage = q.per_page as number;
    const extra: Record<string, unknown> = { ons_table: TABLE_NAMES[table] };
    if (year === undefined) {
      const newest = (await queryOne<{ y: number | null }>(conn, 'SELECT max(year) AS y FROM earnings'))?.y;
      const m = await provenanceMeta(EARNINGS_INFO, conn, {
        ...extra,
        ...(newest !== null && newest !== undefined ? { as_of: asOf(Number(newest)) } : {}),
        note: `No ${TABLE_NAMES[table]} ${measure} data is loaded; 'publicdata sync earnings' loads it from the ONS pages.`,
      });
      return { data: [], meta: m, pagination: pagination(0, page, perPage) };
    }
    const where = new Where()
      .add('ons_table = ?', table)
      .add('year = ?', year)
      .add('measure = ?', measure)
      .add('population = ?', q.population as string);
    const f = q[spec.filter];
    if (typeof f === 'string') {
      const t = f.trim();
      if (CODE_RE[spec.family].test(t)) where.add('code = ?', t.toUpperCase());
      else where.add('contains(lower(name), lower(?))', t);
    }
    if (typeof q.level === 'string') where.add('level = ?', q.level);
    const { rows, total } = await pagedQuery<EarningsRow>(conn, { from: 'earnings', columns: COLUMNS, where, orderBy: 'seq', page, perPage });
    extra.reference_period = `April ${year}`;
    extra.as_of = asOf(year);
    if (spec.family === 'occupation' && socVersion(year) !== 'SOC 2020') extra.note = socNote(year);
    const m = await provenanceMeta(EARNINGS_INFO, conn, extra);
    return { data: rows.map(toRecord), meta: m, pagination: pagination(total, page, perPage) };
  };
}

export const regions = listHandler({ family: 'geography', filter: 'geography', table: (r) => ((r.query.basis as Basis) === 'residence' ? '8' : '7') });
export const industries = listHandler({ family: 'industry', filter: 'industry', table: () => '4' });
export const occupations = listHandler({ family: 'occupation', filter: 'occupation', table: () => '14' });

const bad = (m: string) => new ApiError(400, 'invalid_parameter', m);

/**
 * The default basis of the percentile route: the workplace table (7), or the residence table (8) when it
 * has the year asked and Table 7 does not (no year asked: when Table 7 has no year at all). A year neither
 * table holds stays on Table 7, whose loaded years the error then names (with no Table 7 loaded at all,
 * the error names Table 7 and gives Table 8's years).
 */
async function residenceInstead(conn: DuckDBConnection, measure: Measure, year: number | undefined): Promise<boolean> {
  const wp = await loadedYears(conn, '7', measure);
  const rs = await loadedYears(conn, '8', measure);
  if (year === undefined) return wp.length === 0 && rs.length > 0;
  if (wp.length === 0 && rs.length > 0 && !rs.includes(year)) {
    // no Table 7 at all: the error still names Table 7 first, and says which years Table 8 has
    throw bad(`Invalid parameter 'year': ${year} is not loaded for ${TABLE_NAMES['7']} ${measure} (none of it is loaded) nor for ${TABLE_NAMES['8']} ${measure}. Loaded years of Table 8: ${rs.join(', ')}.`);
  }
  return !wp.includes(year) && rs.includes(year);
}

export const percentile: Handler = async (req, ctx) => {
  const b = req.body as {
    amount: number; measure: Measure; population: string; geography: string; occupation?: string; year?: number; basis?: Basis;
  };
  // The codes' shapes are checked by the route spec (patterns); this combination before the mirror is opened.
  const geography = b.geography.toUpperCase();
  if (b.occupation !== undefined && geography !== 'K02000001') {
    throw bad("Fields 'occupation' and 'geography' cannot be combined: ASHE Table 14 gives occupations for the United Kingdom only.");
  }
  const conn = await openDataset(EARNINGS_INFO, ctx.mirrorDir);
  let table = b.occupation !== undefined ? '14' : b.basis === 'residence' ? '8' : '7';
  const notes: string[] = [];
  if (b.occupation === undefined && b.basis === undefined && (await residenceInstead(conn, b.measure, b.year))) {
    table = '8';
    notes.push(`Compared with the place-of-residence table (ASHE Table 8): no place-of-work data (Table 7) is loaded${b.year !== undefined ? ` for ${b.year}` : ''}.`);
  }
  const year = await resolveYear(conn, table, b.measure, b.year, `${TABLE_NAMES[table]} ${b.measure}`);
  if (year === undefined) throw new ApiError(503, 'dataset_not_synced', `No ${TABLE_NAMES[table]} ${b.measure} data is loaded. Run 'publicdata sync earnings'.`);
  const code = b.occupation ?? geography;
  const row = await queryOne<EarningsRow>(
    conn,
    `SELECT ${COLUMNS} FROM earnings WHERE ons_table = ? AND year = ? AND measure = ? AND population = ? AND code = ?`,
    [table, year, b.measure, b.population, code],
  );
  if (!row) throw new ApiError(404, 'not_found', `No ${TABLE_NAMES[table]} ${year} ${b.measure} record for ${b.occupation !== undefined ? 'occupation' : 'geography'} '${code}' (population ${b.population}).`);
  if (table === '14' && (row.soc_version ?? socVersion(year)) !== 'SOC 2020') notes.push(socNote(year));
  const placed = placeAmount(b.amount, row, missingOf(row.suppressed ? row.suppressed.split(',') : [], JSON.parse(row.markers) as Record<string, string>));
  if (placed.unplaced) notes.push(`Not placed: ${placed.unplaced}.`);
  const m = await provenanceMeta(EARNINGS_INFO, conn, {
    ons_table: TABLE_NAMES[table],
    reference_period: `April ${year}`,
    as_of: asOf(year),
    method: 'linear interpolation between the adjacent published percentiles (p10 ... p90, median as p50); nothing beyond p10 or p90; one decimal place, half up',
    ...(notes.length ? { note: notes.join(' ') } : {}),
  });
  return {
    data: {
      amount: b.amount,
      percentile: placed.percentile,
      percentile_bound: placed.percentile_bound,
      between: placed.between,
      reference: toRecord(row),
    },
    meta: m,
  };
};
