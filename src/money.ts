/**
 * Exact money arithmetic on integer pence. Amounts are integers (pence); rates are exact decimal
 * fractions given as numbers with at most 6 decimal places (0.2, 0.1325, 0.0273), scaled to integer
 * parts per million. Products are exact: safe-integer arithmetic where it fits, BigInt beyond 2^53.
 * Division is integer division with an explicit rounding mode, so no float arithmetic touches an amount.
 * Every calculator (tax, VAT, VAT return) rounds through here.
 */

/**
 * 'down' / 'up': toward / away from zero. 'half-up': nearest, an exact half away from zero.
 * 'half-down': nearest, an exact half toward zero (HMRC's exact percentage method for NI, CWG2).
 * 'half-even': nearest, an exact half to the even neighbour.
 */
export type Rounding = 'down' | 'up' | 'half-up' | 'half-down' | 'half-even';

export const PPM = 1_000_000;

/** A rate (fraction) as integer parts per million; throws if it has more than 6 decimal places. */
export function ratePpm(rate: number): number {
  const ppm = Math.round(rate * PPM);
  if (Math.abs(ppm - rate * PPM) > 1e-6) throw new Error(`rate ${rate} has more than 6 decimal places`);
  return ppm;
}

/**
 * Whether the floor quotient q of a/b moves up by one, for a remainder r > 0: `cmp` is 2r against b
 * (-1, 0, 1), `negative` the sign of a/b, `qOdd` the parity of q.
 */
function roundsUp(cmp: number, negative: boolean, qOdd: boolean, mode: Rounding): boolean {
  switch (mode) {
    case 'down':
      return negative;
    case 'up':
      return !negative;
    case 'half-up':
      return cmp > 0 || (cmp === 0 && !negative);
    case 'half-down':
      return cmp > 0 || (cmp === 0 && negative);
    case 'half-even':
      return cmp > 0 || (cmp === 0 && qOdd);
  }
}

/** Integer division a/b (b > 0) with a rounding mode; exact for any integers (BigInt beyond 2^53). */
export function divRound(a: number, b: number, mode: Rounding): number {
  // The safe-integer path needs (a % b) + b and a - r exact too: |a| + 2b within 2^53 - 1.
  if (Number.isSafeInteger(a) && Number.isSafeInteger(b) && b > 0 && Math.abs(a) <= Number.MAX_SAFE_INTEGER - 2 * b) {
    const r = ((a % b) + b) % b; // non-negative remainder
    const q = (a - r) / b;
    if (r === 0) return q;
    const twice = 2 * r;
    return roundsUp(twice > b ? 1 : twice === b ? 0 : -1, a < 0, q % 2 !== 0, mode) ? q + 1 : q;
  }
  return Number(divRoundBig(BigInt(a), BigInt(b), mode));
}

export function divRoundBig(a: bigint, b: bigint, mode: Rounding): bigint {
  const r = ((a % b) + b) % b;
  const q = (a - r) / b;
  if (r === 0n) return q;
  const twice = 2n * r;
  return roundsUp(twice > b ? 1 : twice === b ? 0 : -1, a < 0n, q % 2n !== 0n, mode) ? q + 1n : q;
}

/**
 * The exact value of a number as its shortest decimal text (`String(x)`, the value decimal.js takes for a
 * number): units / 10^scale. `14.5` gives 145 / 10^1; `1e-7` gives 1 / 10^7.
 */
export function decimalOf(x: number): { units: bigint; scale: number } {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(x));
  if (!m) throw new RangeError(`not a finite number: ${x}`);
  const frac = m[3] ?? '';
  let units = BigInt(m[2]! + frac);
  let scale = frac.length - Number(m[4] ?? 0);
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units: m[1] ? -units : units, scale };
}

/** units / 10^scale as the nearest JavaScript number (exact decimal text, then parsed). */
export function decimalToNumber(units: bigint, scale: number): number {
  if (scale === 0) return Number(units);
  const neg = units < 0n;
  const digits = (neg ? -units : units).toString().padStart(scale + 1, '0');
  return Number(`${neg ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`);
}

/** a x b / c (c > 0), rounded by `mode`; exact (BigInt when a x b passes 2^53). */
export function mulDiv(a: number, b: number, c: number, mode: Rounding): number {
  const product = a * b;
  if (Number.isSafeInteger(product)) return divRound(product, c, mode);
  return Number(divRoundBig(BigInt(a) * BigInt(b), BigInt(c), mode));
}

/** pence x rate, rounded to whole pence with `mode`. */
export function applyRate(pence: number, rate: number, mode: Rounding = 'half-up'): number {
  return mulDiv(pence, ratePpm(rate), PPM, mode);
}

/** pence x (a rate already in parts per million), rounded to whole pence with `mode`. */
export function applyPpm(pence: number, ppm: number, mode: Rounding): number {
  return mulDiv(pence, ppm, PPM, mode);
}

/** The largest amount accepted anywhere: £1 billion (keeps every product of amounts and rates exact). */
export const MAX_AMOUNT_PENCE = 100_000_000_000;

/**
 * Pounds (a number with at most 2 decimal places, as typed by a user) to integer pence; a third decimal
 * place rounds half away from zero. Throws RangeError beyond ±£1 billion.
 */
export function toPence(pounds: number): number {
  // Math.round rounds -0.5 up to -0; rounding the magnitude keeps halves away from zero for both signs.
  const p = Math.sign(pounds) * Math.round(Math.abs(pounds) * 100);
  if (!Number.isSafeInteger(p) || Math.abs(p) > MAX_AMOUNT_PENCE) throw new RangeError(`amount ${pounds} is out of range (at most £1,000,000,000)`);
  return p;
}

/** Integer pence to pounds for output (the nearest double to the 2-dp decimal; JSON prints it exactly). */
export function toPounds(pence: number): number {
  return pence / 100;
}

/** Round pence to whole pounds (in pence) with `mode`. */
export function roundToPounds(pence: number, mode: Rounding): number {
  return divRound(pence, 100, mode) * 100;
}

/**
 * Amount text as people type it, without its thousands separators: `45,000` and `1,234,567.89` give
 * `45000` and `1234567.89`; text without commas is returned as it is. Commas are accepted only as
 * thousands separators in groups of three after one to three digits: `45,00`, `12,50` or `10,00` (a
 * decimal comma, as spreadsheets in many locales write it) give undefined, never a number 100 times too
 * big. The caller reports undefined as bad input.
 */
export function withoutThousands(text: string): string | undefined {
  if (!text.includes(',')) return text;
  return /^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text) ? text.replace(/,/g, '') : undefined;
}

/**
 * Exact pence from decimal text with at most 2 decimal places, as DuckDB prints a DECIMAL(…,2) or a
 * bulk file writes an amount (`'1234.56'`, `'-5.00'`, `'12'`); null and undefined stay null.
 */
export function penceFromText(v: unknown): bigint | null {
  if (v === null || v === undefined) return null;
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(String(v));
  if (!m) throw new Error(`not a money value: ${String(v)}`);
  const p = BigInt(m[2]!) * 100n + BigInt((m[3] ?? '').padEnd(2, '0') || '0');
  return m[1] ? -p : p;
}

/** `123456n` pence -> `'1234.56'` (exact decimal text, no floating point). */
export function penceToText(p: bigint): string {
  const neg = p < 0n;
  const s = (neg ? -p : p).toString().padStart(3, '0');
  return `${neg ? '-' : ''}${s.slice(0, -2)}.${s.slice(-2)}`;
}

/** Pounds as a JSON number from exact pence: the nearest double to the 2-dp decimal, made from its text. */
export function poundsFromPence(p: bigint | null): number | null {
  return p === null ? null : Number(penceToText(p));
}

/**
 * A decimal number typed as text (`'45.5'`) times a whole multiplier (1,000 for `45.5k`), to whole pence
 * rounded half away from zero: exact (BigInt), whatever the digits.
 */
export function scaledTextToPence(text: string, multiplier: bigint): bigint {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new Error(`not a decimal number: ${text}`);
  const frac = m[3] ?? '';
  const units = BigInt(`${m[2]}${frac}`);
  const pence = divRoundBig(units * multiplier * 100n, 10n ** BigInt(frac.length), 'half-up');
  return m[1] ? -pence : pence;
}


/**
 * a / b (two exact amounts in pence) times `scale` (100: a percentage), rounded to `dp` decimals with an exact
 * half toward +infinity (Math.round: 0.125 to 0.13, -0.125 to -0.12): a ratio, not an amount, so a double;
 * null when undefined (either null, or b zero).
 */
export function penceRatio(a: bigint | null, b: bigint | null, scale = 1, dp = 4): number | null {
  if (a === null || b === null || b === 0n) return null;
  return Math.round((Number(a) / Number(b)) * scale * 10 ** dp) / 10 ** dp;
}

/** An exact decimal n x 10^e (bigint n; no floating point), as an amount is written in a filing (`1,234.50` is 123450 x 10^-2). */
export interface Dec {
  n: bigint;
  e: number;
}

function pow10(k: number): bigint {
  let r = 1n;
  for (let i = 0; i < k; i++) r *= 10n;
  return r;
}

/** `d` as a whole number of 10^target units, halves away from zero (as divRoundBig 'half-up'). */
export function rescaleDec(d: Dec, target: number): bigint {
  if (d.e >= target) return d.n * pow10(d.e - target);
  const div = pow10(target - d.e);
  const q = d.n / div;
  const r = d.n % div;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= div) return d.n < 0n ? q - 1n : q + 1n;
  return q;
}

/** `d` (pounds) as whole pence, halves away from zero (docs/companies.md: "Rounding"). */
export function decToPence(d: Dec): bigint {
  return rescaleDec(d, -2);
}

/** The same value, whatever the exponents (`1.50` and `1.5`). */
export function decEqual(a: Dec, b: Dec): boolean {
  const e = Math.min(a.e, b.e);
  return rescaleDec(a, e) === rescaleDec(b, e);
}

/** Exact decimal text: `{ n: -12345n, e: -2 }` is `'-123.45'`, `{ n: 12n, e: 3 }` is `'12000'`. */
export function decToText(d: Dec): string {
  if (d.e >= 0) return (d.n * pow10(d.e)).toString();
  const neg = d.n < 0n;
  const s = (neg ? -d.n : d.n).toString().padStart(-d.e + 1, '0');
  return `${neg ? '-' : ''}${s.slice(0, d.e)}.${s.slice(d.e)}`;
}
