/**
 * The parse of an ix:nonFraction's displayed text under its ixt `format` into an exact decimal (`Dec`:
 * value = n x 10^e as a bigint and an exponent, no floating point on amounts). The arithmetic on it
 * (rounding to pence, comparing, its text) is src/money.ts.
 */

import type { Dec } from '../../../../money.js';

/**
 * Parse the displayed text of an ix:nonFraction under its `format` (the ixt transformation registries
 * 1-4: numdotdecimal/numcommadot, numcommadecimal/numdotcomma, zerodash/numdash/fixed-zero, nocontent,
 * plus no format at all). Returns undefined when the text is not a number in that format, null for
 * nocontent/fixed-empty (no value).
 */
export function parseDisplayed(text: string, format: string | undefined): Dec | null | undefined {
  const f = format ? formatName(format) : '';
  if (f === '' || f === 'numdotdecimal' || f === 'numcommadot' || f === 'num-dot-decimal') {
    const d = plainNumber(text);
    if (d) return d;
  }
  const t = text.replace(/[\s\u00a0]+/g, '');
  if (f === 'nocontent' || f === 'fixed-empty') return null;
  if (f === 'zerodash' || f === 'numdash' || f === 'fixed-zero' || /^[-\u2012-\u2015\u2212]$/.test(t)) return { n: 0n, e: 0 };
  if (t === '') return undefined;
  let intPart: string;
  let frac = '';
  if (f === 'numcommadecimal' || f === 'numdotcomma' || f === 'num-comma-decimal') {
    // 1.234.567,89 (also spaces or apostrophes as group separators)
    const m = /^([0-9.' ]*[0-9])(?:,([0-9]*))?$/.exec(t);
    if (!m) return undefined;
    intPart = m[1]!.replace(/[.' ]/g, '');
    frac = m[2] ?? '';
  } else {
    // numdotdecimal / numcommadot / num-dot-decimal / none: 1,234,567.89
    const m = /^([0-9,' ]*[0-9])?(?:\.([0-9]*))?$/.exec(t);
    if (!m || (m[1] === undefined && !m[2])) return undefined;
    intPart = (m[1] ?? '0').replace(/[,' ]/g, '');
    frac = m[2] ?? '';
  }
  if (!/^[0-9]+$/.test(intPart) || !/^[0-9]*$/.test(frac)) return undefined;
  return { n: BigInt(intPart + frac), e: frac.length ? -frac.length : 0 };
}

/** `ixt:numdotdecimal` -> `numdotdecimal` (cached: a document repeats a handful of formats). */
const formats = new Map<string, string>();
function formatName(format: string): string {
  let f = formats.get(format);
  if (f === undefined) {
    f = format.slice(format.indexOf(':') + 1).toLowerCase();
    if (formats.size > 1000) formats.clear();
    formats.set(format, f);
  }
  return f;
}

/**
 * The common case without regular expressions: `1,234,567` or `1,234.56` (digits and group commas,
 * starting and ending with a digit, an optional `.digits`), surrounded by ASCII white space or no-break
 * spaces. Undefined for anything else, which then takes the general path (same result either way).
 */
function plainNumber(text: string): Dec | undefined {
  let i = 0;
  let end = text.length;
  while (i < end && isSpace(text.charCodeAt(i))) i++;
  while (end > i && isSpace(text.charCodeAt(end - 1))) end--;
  if (i === end) return undefined;
  let digits = '';
  let from = i;
  let c = text.charCodeAt(i);
  if (c < 48 || c > 57) return undefined;
  for (; i < end; i++) {
    c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) continue;
    if (c === 44 /* , */) {
      const n = text.charCodeAt(i + 1);
      if (i + 1 >= end || n < 48 || n > 57) return undefined;
      digits += text.slice(from, i);
      from = i + 1;
      continue;
    }
    break;
  }
  digits += text.slice(from, i);
  let frac = '';
  if (i < end) {
    if (c !== 46 /* . */) return undefined;
    const f0 = i + 1;
    for (i = f0; i < end; i++) {
      c = text.charCodeAt(i);
      if (c < 48 || c > 57) return undefined;
    }
    frac = text.slice(f0, end);
  }
  return { n: BigInt(digits + frac), e: frac.length ? -frac.length : 0 };
}
const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9 || c === 0xa0;
