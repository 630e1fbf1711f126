/** Friendly amounts typed on the command line (commands and the domains' own command options). */
import { ApiError } from './contract/errors.js';
import { withoutThousands } from './money.js';

/**
 * Friendly number input: "45,000", "£45000", "45k" become 45000. A comma is a thousands separator only
 * (groups of three): "45,00" is a bad_request, never 4500. Anything else is left for validation.
 */
export function parseAmount(v: string, name = 'amount'): number | string {
  const s = withoutThousands(v.trim().replace(/^£/, ''));
  if (s === undefined) {
    throw new ApiError(400, 'bad_request', `Invalid ${name} '${v}': a comma is allowed only as a thousands separator (45,000 or 1,234.50), never as the decimal point.`);
  }
  const m = /^(-?\d+(?:\.\d+)?)([kKmM]?)$/.exec(s);
  if (!m) return v;
  const n = Number(m[1]);
  const mult = m[2]?.toLowerCase() === 'k' ? 1000 : m[2]?.toLowerCase() === 'm' ? 1_000_000 : 1;
  return mult === 1 ? n : Math.round(n * mult * 100) / 100;
}
