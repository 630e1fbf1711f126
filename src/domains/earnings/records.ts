/**
 * Reading earnings.duckdb (src/domains/earnings/sync/): the years loaded per table and measure, and the
 * mapping of a table row to the spec's earnings record.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { ApiError } from '../../contract/errors.js';
import { query } from '../../mirror/db.js';
import type { Family } from './codes.js';
import type { Measure } from './routes.js';

/**
 * meta.as_of: the date of the data answered from (spec doc 4: months `YYYY-MM`), which for ASHE is its
 * April reference period, not the day it was synced (issue 37). The sync records the same month, as its
 * first day, for the newest year loaded (sync/index.ts): `mirror status` counts a `--from` load's age from it.
 */
export const asOf = (year: number): string => `${year}-04`;

export const PCT_FIELDS = ['p10', 'p20', 'p25', 'p30', 'p40', 'p60', 'p70', 'p75', 'p80', 'p90'] as const;

export interface EarningsRow {
  family: Family;
  ons_table: string;
  year: number;
  basis: string | null;
  population: string;
  measure: string;
  code: string;
  name: string;
  level: string;
  jobs_thousands: number | null;
  median: number | null;
  median_change: number | null;
  mean: number | null;
  mean_change: number | null;
  p10: number | null; p20: number | null; p25: number | null; p30: number | null; p40: number | null;
  p60: number | null; p70: number | null; p75: number | null; p80: number | null; p90: number | null;
  status: string;
  suppressed: string;
  markers: string;
  soc_version: string | null;
  [k: string]: unknown;
}

export const COLUMNS = `family, ons_table, year, basis, population, measure, code, name, level, jobs_thousands, median,
  median_change, mean, mean_change, ${PCT_FIELDS.join(', ')}, status, suppressed, markers, soc_version`;

/** Table column -> the record's field name (as `suppressed` and `markers` name them). */
function fieldName(col: string): string {
  if (col === 'median_change') return 'median_annual_change_percent';
  if (col === 'mean_change') return 'mean_annual_change_percent';
  if (col.startsWith('p') && /^p\d{2}$/.test(col)) return `percentiles.${col}`;
  return col;
}

export function toRecord(r: EarningsRow): Record<string, unknown> {
  const markers = JSON.parse(r.markers) as Record<string, string>;
  const rec: Record<string, unknown> = {
    year: r.year,
    [r.family]: { code: r.code, name: r.name, level: r.level },
    ...(r.family === 'geography' ? { basis: r.basis } : {}),
    population: r.population,
    measure: r.measure,
    jobs_thousands: r.jobs_thousands,
    median: r.median,
    mean: r.mean,
    percentiles: Object.fromEntries(PCT_FIELDS.map((p) => [p, r[p]])),
    median_annual_change_percent: r.median_change,
    mean_annual_change_percent: r.mean_change,
    status: r.status,
    suppressed: r.suppressed ? r.suppressed.split(',').map(fieldName) : [],
    markers: Object.fromEntries(Object.entries(markers).map(([k, v]) => [fieldName(k), v])),
  };
  if (r.family === 'occupation') rec.soc_version = r.soc_version;
  return rec;
}

const yearsCache = new WeakMap<DuckDBConnection, Promise<Map<string, number[]>>>();

/** Years loaded per `table/measure` (one query per open file; a new sync opens a new connection). */
export async function loadedYears(conn: DuckDBConnection, table: string, measure: Measure): Promise<number[]> {
  let p = yearsCache.get(conn);
  if (!p) {
    p = query<{ ons_table: string; measure: string; year: number }>(conn, 'SELECT DISTINCT ons_table, measure, year FROM earnings_sources ORDER BY year').then(
      (rows) => {
        const m = new Map<string, number[]>();
        for (const r of rows) {
          const k = `${r.ons_table}/${r.measure}`;
          m.set(k, [...(m.get(k) ?? []), r.year]);
        }
        return m;
      },
    );
    yearsCache.set(conn, p);
    p.catch(() => yearsCache.delete(conn));
  }
  return (await p).get(`${table}/${measure}`) ?? [];
}

/** The year asked for (400 invalid_parameter when it is not loaded), or the newest loaded; undefined when none is. */
export async function resolveYear(conn: DuckDBConnection, table: string, measure: Measure, asked: unknown, what: string): Promise<number | undefined> {
  const years = await loadedYears(conn, table, measure);
  if (asked === undefined) return years.at(-1);
  const y = Number(asked);
  if (!years.includes(y)) {
    throw new ApiError(
      400,
      'invalid_parameter',
      years.length
        ? `Invalid parameter 'year': ${y} is not loaded for ${what}. Loaded years: ${years.join(', ')}.`
        : `Invalid parameter 'year': no ${what} is loaded. Run 'publicdata sync earnings' (with --years to choose the years).`,
    );
  }
  return y;
}
