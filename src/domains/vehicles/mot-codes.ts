/**
 * The MOT code lists of data/vehicles/mot.yaml, and SQL expressions built from them (used by the sync to
 * label and band rows once, so the routes answer from pre-labelled tables).
 */
import { loadData } from '../../data.js';

export interface MotCodes {
  results: { codes: Record<string, string>; excluded: string[] };
  fuel_types: { codes: Record<string, string>; unknown: string };
  test_types: { codes: Record<string, string> };
  rfr_types: { codes: Record<string, string>; unknown: string };
  age_bands: { bands: Array<{ label: string; from: number; to: number | null }> };
  first_use_year_band: { width: number; unknown: string };
  unknown_first_use_date: string;
}

export function motCodes(): MotCodes {
  return loadData<MotCodes>('vehicles/mot');
}

/** A SQL string literal (codes and labels from the shipped data file only, never user input). */
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** `CASE <expr> WHEN 'code' THEN 'label' ... ELSE <fallback> END`. */
export function caseMap(expr: string, codes: Record<string, string>, fallback: string): string {
  return `CASE ${expr} ${Object.entries(codes).map(([c, l]) => `WHEN ${lit(c)} THEN ${lit(l)}`).join(' ')} ELSE ${fallback} END`;
}

/** SQL: the spec's vehicle age band of a test, from the whole years between first use and the test date. */
export function ageBandSql(firstUse: string, testDate: string): string {
  const age = `date_sub('year', ${firstUse}, ${testDate})`;
  const arms = motCodes()
    .age_bands.bands.map((b) => `WHEN ${age} >= ${b.from}${b.to === null ? '' : ` AND ${age} <= ${b.to}`} THEN ${lit(b.label)}`)
    .join(' ');
  // A first use after the test date (a data error) has no age: 'unknown', as a missing date.
  return `CASE WHEN ${firstUse} IS NULL OR ${firstUse} > ${testDate} THEN 'unknown' ${arms} END`;
}

/**
 * SQL: five-year first-use band, e.g. 2015-2019; 'unknown' as the age band is (docs/vehicles.md): no
 * first-use date, or one after the test date (a data error: the recorded date cannot be the real one).
 */
export function firstUseBandSql(firstUse: string, testDate: string): string {
  const { width, unknown } = motCodes().first_use_year_band;
  const start = `(year(${firstUse}) // ${width}) * ${width}`;
  return `CASE WHEN ${firstUse} IS NULL OR ${firstUse} > ${testDate} THEN ${lit(unknown)} ELSE CAST(${start} AS VARCHAR) || '-' || CAST(${start} + ${width - 1} AS VARCHAR) END`;
}

/**
 * `mot_pass_rates` as the routes read it. A mirror synced before the first-use band followed the age
 * band for a first use after the test date holds such tests under a year band (2025-2029) with age band
 * 'unknown'; the age bands cover every whole-year age from 0 (data/vehicles/mot.yaml), so an 'unknown'
 * age band means exactly "no first use, or after the test date": re-banded 'unknown' and summed here, so
 * an existing mirror answers right without a re-sync (a mirror synced since holds no such row).
 */
export function passRatesSql(): string {
  const { unknown } = motCodes().first_use_year_band;
  return `(SELECT test_year, make, model, fuel_type,
      CASE WHEN vehicle_age_band = 'unknown' THEN ${lit(unknown)} ELSE first_use_year_band END AS first_use_year_band,
      vehicle_age_band, sum(tests) AS tests, sum(passes) AS passes
    FROM mot_pass_rates GROUP BY ALL) AS mot_pass_rates`;
}

/** The API labels (for validation messages and docs). */
export const AGE_BAND_LABELS = (): string[] => motCodes().age_bands.bands.map((b) => b.label);
