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
