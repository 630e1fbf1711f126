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

/** Parse `--years 2020-2025` (or a single `2024`) into SyncOptions.years; throws on nonsense. */
export function parseYearsOption(s: string): { from: number; to: number } {
  const m = /^\s*(\d{4})\s*(?:-\s*(\d{4}))?\s*$/.exec(s);
  if (!m) throw new Error(`--years must be YYYY or YYYY-YYYY, got '${s}'`);
  const from = Number(m[1]);
  const to = Number(m[2] ?? m[1]);
  if (from > to) throw new Error(`--years: ${from} is after ${to}`);
  if (from < 1995) throw new Error('--years: price paid data starts in 1995');
  return { from, to };
}
