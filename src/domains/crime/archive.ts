/**
 * The layout of data.police.uk's archive: member names, the months an archive carries, the months a sync
 * loads, and the CSV headers. Pure functions (no zip, no DuckDB), shared by the sync and its tests.
 *
 * An archive `https://data.police.uk/data/archive/<YYYY-MM>.zip` (or `latest.zip`) holds, for each month of
 * its rolling window, `YYYY-MM/YYYY-MM-<force>-street.csv`, `-outcomes.csv` and `-stop-and-search.csv`.
 */

/** Street CSV header, verbatim (SOURCES-domains-more.md; the real files in test/fixtures/crime). */
export const STREET_HEADER = [
  'Crime ID', 'Month', 'Reported by', 'Falls within', 'Longitude', 'Latitude', 'Location', 'LSOA code', 'LSOA name', 'Crime type',
  'Last outcome category', 'Context',
] as const;

/** Outcomes CSV header, verbatim. Its Month is the month of the outcome. */
export const OUTCOMES_HEADER = [
  'Crime ID', 'Month', 'Reported by', 'Falls within', 'Longitude', 'Latitude', 'Location', 'LSOA code', 'LSOA name', 'Outcome type',
] as const;

/** Our column names for the headers above, in order. */
export const STREET_COLUMNS = [
  'crime_id', 'month', 'reported_by', 'falls_within', 'longitude', 'latitude', 'location', 'lsoa_code', 'lsoa_name', 'crime_type',
  'last_outcome', 'context',
] as const;
export const OUTCOMES_COLUMNS = [
  'crime_id', 'month', 'reported_by', 'falls_within', 'longitude', 'latitude', 'location', 'lsoa_code', 'lsoa_name', 'outcome',
] as const;

export type MemberKind = 'street' | 'outcomes';

export interface CrimeMember {
  /** Path inside the zip (or the file name of a lone CSV given with --from). */
  name: string;
  /** The month of the archive folder / file name, YYYY-MM. */
  month: string;
  force: string;
  kind: MemberKind;
}

/** `[YYYY-MM/]YYYY-MM-<force>-(street|outcomes).csv`; stop-and-search and anything else: undefined. */
const MEMBER_RE = /(?:^|\/)(\d{4})-(0[1-9]|1[0-2])-([a-z0-9]+(?:-[a-z0-9]+)*)-(street|outcomes)\.csv$/;

export function parseMemberName(name: string): CrimeMember | undefined {
  const m = MEMBER_RE.exec(name);
  if (!m) return undefined;
  return { name, month: `${m[1]}-${m[2]}`, force: m[3]!, kind: m[4] as MemberKind };
}

/** The months a set of members carries (those with a street file), oldest first. */
export function monthsCarried(members: readonly CrimeMember[]): string[] {
  return [...new Set(members.filter((m) => m.kind === 'street').map((m) => m.month))].sort();
}

/** The newest `n` of the months carried (the default sync: 12). */
export function newestMonths(months: readonly string[], n: number): string[] {
  return [...months].sort().slice(-Math.max(1, n));
}

/** The last day of a YYYY-MM month, YYYY-MM-DD (a month's data are as of its end). */
export function monthEnd(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** True when a CSV header (as read from the file) is the expected one (BOM and surrounding blanks ignored). */
export function headerMatches(header: readonly string[], expected: readonly string[]): boolean {
  return header.length === expected.length && header.every((h, i) => h.trim() === expected[i]);
}
