/**
 * Postcode filters over a table sorted by a normalised `postcode` column (upper case, one space before the
 * inward code): what a filter value means, and the SQL range condition (bound parameters only) that keeps
 * DuckDB's zonemap pruning useful. Shared by every domain that filters by postcode (price paid, the
 * company register, ...). A full postcode matches exactly; an outward code (`LS8`, `SW1A`) matches that
 * outward code only (`B1` never matches `B10 ...`), and an outward code ending in a digit also matches its
 * lettered sub-districts (`SW1` -> `SW1A ...`); an area (`LS`) matches `LS<digit>...`; a sector (`LS8 3`)
 * or any other value matches as a prefix (docs/mirror.md "Price paid: query rules").
 */
import type { Param } from './db.js';

/** Upper case, trimmed, inner whitespace collapsed. */
export function normText(s: string): string {
  return s.trim().replace(/\s+/g, ' ').toUpperCase();
}

const FULL_RE = /^([A-Z]{1,2}\d[A-Z\d]?)(\d[A-Z]{2})$/;
const OUTWARD_RE = /^[A-Z]{1,2}\d[A-Z\d]?$/;
const AREA_RE = /^[A-Z]{1,2}$/;

export type PostcodeMatch =
  | { kind: 'full'; postcode: string }
  | { kind: 'outward'; outward: string }
  | { kind: 'area'; area: string }
  | { kind: 'prefix'; prefix: string };

/** Classify a postcode filter value (rule in the header comment). */
export function classifyPostcode(raw: string): PostcodeMatch {
  const s = normText(raw);
  const compact = s.replace(/ /g, '');
  const full = FULL_RE.exec(compact);
  if (full) return { kind: 'full', postcode: `${full[1]} ${full[2]}` };
  if (s.includes(' ')) return { kind: 'prefix', prefix: s }; // a sector like 'LS8 3' or 'LS8 3B'
  if (OUTWARD_RE.test(compact)) return { kind: 'outward', outward: compact };
  if (AREA_RE.test(compact)) return { kind: 'area', area: compact };
  return { kind: 'prefix', prefix: s };
}

/** SQL condition (bound parameters only) for a postcode filter; ranges keep zonemap pruning useful. */
export function postcodeCondition(raw: string): { sql: string; params: Param[] } {
  const m = classifyPostcode(raw);
  switch (m.kind) {
    case 'full':
      return { sql: 'postcode = ?', params: [m.postcode] };
    case 'outward': {
      // `OUT ` .. `OUT!` is exactly the postcodes of this outward code ('!' follows ' ').
      const own = { sql: '(postcode >= ? AND postcode < ?)', params: [`${m.outward} `, `${m.outward}!`] as Param[] };
      if (/\d$/.test(m.outward)) {
        // Lettered sub-districts: SW1 → SW1A..SW1Z ('[' follows 'Z'). The enclosing range `OUT ` .. `OUT[`
        // comes first as a plain conjunct so DuckDB prunes row groups with it (it does not prune on an OR).
        return {
          sql: `(postcode >= ? AND postcode < ? AND (${own.sql} OR (postcode >= ? AND postcode < ? AND substr(postcode, ?, 1) = ' ')))`,
          params: [`${m.outward} `, `${m.outward}[`, ...own.params, `${m.outward}A`, `${m.outward}[`, m.outward.length + 2],
        };
      }
      return own;
    }
    case 'area': {
      const next = m.area.slice(0, -1) + String.fromCharCode(m.area.charCodeAt(m.area.length - 1) + 1);
      return {
        sql: `(postcode >= ? AND postcode < ? AND substr(postcode, ?, 1) BETWEEN '0' AND '9')`,
        params: [m.area, next, m.area.length + 1],
      };
    }
    case 'prefix':
      return { sql: '(postcode >= ? AND postcode < ?)', params: [m.prefix, `${m.prefix}\u007f`] };
  }
}
