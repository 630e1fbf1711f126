/**
 * A member before and around parsing: sniffing its bytes, decoding them, the saxes parser as the extractor
 * configures it (XHTML entities, errors thrown as MalformedError), the company number and balance-sheet
 * date in the member's file name, and dates as written in nonNumeric facts.
 */
import { SaxesParser } from 'saxes';

/** Entities of XHTML that are not XML's own (saxes knows amp, lt, gt, quot, apos). */
const HTML_ENTITIES: Record<string, string> = {
  nbsp: '\u00a0', pound: '£', euro: '€', copy: '©', reg: '®', ndash: '–', mdash: '—', lsquo: '‘', rsquo: '’',
  ldquo: '“', rdquo: '”', hellip: '…', bull: '•', middot: '·', deg: '°', sect: '§', para: '¶', times: '×',
  shy: '\u00ad', ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009', eacute: 'é', egrave: 'è', aacute: 'á',
  agrave: 'à', ouml: 'ö', uuml: 'ü', auml: 'ä', ccedil: 'ç', iacute: 'í', oacute: 'ó', uacute: 'ú',
};

export class MalformedError extends Error {}

/** A parser configured the way the extractor uses it (the bench's "bare pass" uses the same). */
export function newParser(): SaxesParser {
  const p = new SaxesParser({ position: false });
  Object.assign(p.ENTITIES, HTML_ENTITIES);
  p.on('error', (e) => {
    throw new MalformedError(e.message);
  });
  return p;
}

/** Sniff a member's bytes: what it is before any parsing. */
export function sniff(bytes: Uint8Array): 'zip' | 'markup' | 'placeholder' | 'empty' | 'binary' {
  let i = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  if (i >= bytes.length) return 'empty';
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return 'zip';
  if (bytes[i] === 0x3c) return 'markup';
  const head = Buffer.from(bytes.subarray(i, i + 32)).toString('latin1');
  if (/^ATTACHMENTPLACEHOLDER/i.test(head)) return 'placeholder';
  return 'binary';
}

const decoder = new TextDecoder('utf-8');

/** Decode a member's bytes (UTF-8; a BOM is dropped). */
export function decodeMember(bytes: Uint8Array): string {
  const s = decoder.decode(bytes);
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}

/** Member file name `Prod223_3517_00035838_20221231.html` -> company number and balance-sheet date. */
export function parseMemberName(name: string): { company_number: string; balance_sheet_date: string } | undefined {
  const base = name.split('/').pop()!;
  const m = /^Prod\d+_\d+_([A-Z0-9]{1,8})_(\d{4})(\d{2})(\d{2})\.(?:x?html?|xml|zip)$/i.exec(base);
  if (!m) return undefined;
  const d = `${m[2]}-${m[3]}-${m[4]}`;
  return { company_number: m[1]!.toUpperCase().padStart(8, '0'), balance_sheet_date: isDate(d) ? d : '' };
}

/** A real calendar date as yyyy-mm-dd (memoised: a document repeats a few dates many times). */
export function isDate(s: string): boolean {
  let ok = checkedDates.get(s);
  if (ok === undefined) {
    ok = /^\d{4}-\d{2}-\d{2}$/.test(s) && dateRoundTrips(s);
    if (checkedDates.size > 10_000) checkedDates.clear();
    checkedDates.set(s, ok);
  }
  return ok;
}
const checkedDates = new Map<string, boolean>();
function dateRoundTrips(s: string): boolean {
  const t = Date.parse(`${s}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === s;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A date as written in a nonNumeric fact: ISO, 31/03/2023, 1.1.22, "31 March 2023", "30\n November 2022". */
export function parseLooseDate(text: string): string | null {
  const t = text.replace(/\s+/g, ' ').trim().replace(/(\d)(st|nd|rd|th)\b/gi, '$1');
  let y: number, mo: number, d: number;
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(t);
  if (m) [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  else if ((m = /^(\d{1,2})[./-](\d{1,2})[./-](\d{2}|\d{4})$/.exec(t))) [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  else if ((m = /^(\d{1,2}) ([A-Za-z]+),? (\d{2}|\d{4})$/.exec(t))) {
    const i = MONTHS.indexOf(m[2]!.slice(0, 3).toLowerCase());
    if (i < 0) return null;
    [d, mo, y] = [Number(m[1]), i + 1, Number(m[3])];
  } else return null;
  if (y < 100) y += 2000;
  const s = `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  return isDate(s) ? s : null;
}

/** The bench's baseline: the same parser over the same text with no handlers. */
export function bareParse(bytes: Uint8Array): void {
  const p = newParser();
  p.write(decodeMember(bytes));
  p.close();
}
