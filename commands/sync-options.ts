/** Parsing of the `sync` command's option values (the sync framework takes them already parsed). */

/**
 * `--limit-rate 500k`, `2M`, `1.5M`, `1048576`: bytes per second (k/M/G are powers of 1024, as curl's
 * --limit-rate). Throws on anything else, including zero.
 */
export function parseRateOption(s: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?(?:\/s)?\s*$/i.exec(s);
  if (!m) throw new Error(`--limit-rate must be a number of bytes per second with an optional k, M or G (e.g. 500k, 2M), got '${s}'`);
  const n = Number(m[1]) * 1024 ** ' kmg'.indexOf((m[2] || ' ').toLowerCase());
  if (!(n >= 1)) throw new Error(`--limit-rate must be at least 1 byte per second, got '${s}'`);
  return Math.floor(n);
}

/**
 * The first year each dataset's `--years` can name: price paid from 1995 (HM Land Registry's data starts
 * in January 1995), road safety from 1979 (DfT's STATS19 `1979-latest-published-year` files), MOT from
 * 2005 (DVSA's first anonymised test year, `test_result_2005.txt.gz`).
 */
export const FIRST_YEARS: Readonly<Record<string, { year: number; what: string }>> = {
  'price-paid': { year: 1995, what: 'price paid data starts in 1995' },
  'road-safety': { year: 1979, what: 'road safety data (STATS19) starts in 1979' },
  mot: { year: 2005, what: 'MOT test data starts in 2005' },
};

/**
 * Parse `--years 2020-2025` (or a single `2024`) into SyncOptions.years; throws on nonsense, and on a year
 * before the first year of any of `datasets` that take --years (naming that dataset's own start).
 */
export function parseYearsOption(s: string, datasets: readonly string[] = ['price-paid']): { from: number; to: number } {
  const m = /^\s*(\d{4})\s*(?:-\s*(\d{4}))?\s*$/.exec(s);
  if (!m) throw new Error(`--years must be YYYY or YYYY-YYYY, got '${s}'`);
  const from = Number(m[1]);
  const to = Number(m[2] ?? m[1]);
  if (from > to) throw new Error(`--years: ${from} is after ${to}`);
  for (const d of datasets) {
    const first = FIRST_YEARS[d];
    if (first && from < first.year) throw new Error(`--years: ${first.what} (got ${from})`);
  }
  return { from, to };
}
