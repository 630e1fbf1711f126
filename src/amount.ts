/** Friendly amounts typed on the command line (commands and the domains' own command options). */
import { ApiError } from './contract/errors.js';
import { poundsFromPence, scaledTextToPence, withoutThousands } from './money.js';

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
  const unit = m[2]?.toLowerCase();
  if (!unit) return Number(m[1]);
  // 45.5k is exactly 45500 (and 1.2345k is 1234.50): BigInt arithmetic on the digits, never n * 1000 in floats.
  return poundsFromPence(scaledTextToPence(m[1]!, unit === 'k' ? 1000n : 1_000_000n))!;
}
