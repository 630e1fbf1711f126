/**
 * An answer's `data` that can write its own JSON text, byte for byte what `JSON.stringify` writes for it:
 * a method under this symbol on the data's prototype (never an own property, so `JSON.stringify`,
 * `Object.keys` and deep equality do not see it). The batch writer (src/batch-line.ts envelopeJson) uses
 * it when present; everything else serialises the data's own fields as usual. A calculator whose answer
 * is mostly money figures writes them from its integer pence, without number-to-text of doubles.
 */
export const JSON_TEXT: unique symbol = Symbol('publicdata.jsonText');

export interface JsonText {
  [JSON_TEXT](): string;
}

export function hasJsonText(v: object): v is JsonText {
  return typeof (v as Partial<JsonText>)[JSON_TEXT] === 'function';
}

/**
 * `JSON.stringify(pence / 100)`, written from the integer: `12345` -> `123.45`, `12340` -> `123.4`, `12300`
 * -> `123`, `-5` -> `-0.05`. Exact while |pence| < 10^15: the doubles near pence / 100 are then less than
 * half a penny apart, so its shortest round-trip text (what JavaScript writes) is the 2-dp decimal without
 * trailing zeros. Beyond that (or for a non-integer) it falls back to JSON.stringify.
 */
export function penceJson(pence: number): string {
  if (!Number.isInteger(pence) || pence >= 1e15 || pence <= -1e15) return JSON.stringify(pence / 100);
  if (pence < 0) return `-${penceJson(-pence)}`;
  const cents = pence % 100;
  return `${(pence - cents) / 100}${CENTS[cents]!}`;
}
/** '' for 0 cents, '.05', '.1', '.25' …: the fraction's text, trailing zeros dropped. */
const CENTS = Array.from({ length: 100 }, (_, c) => (c === 0 ? '' : c % 10 === 0 ? `.${c / 10}` : `.${c < 10 ? '0' : ''}${c}`));
