/**
 * Headline figures from one Companies House accounts document: Inline XBRL (`.html`/`.xhtml`) or plain
 * XBRL (`.xml`). Pure: bytes in, one filing row and its period rows out (or a reject with a reason). No
 * I/O, so the sync runs it in worker threads and the tests run it on the real documents directly.
 *
 * Parsing is a real XML parser (saxes) over the whole document, never regular expressions: attributes
 * come single- or double-quoted with spaces around `=`, prefixes are arbitrary (`core:`, `uk-core:`,
 * `ns5:`, `d:`), and both Inline XBRL namespaces (2008, 2013) occur. Which concept gives which figure is
 * data (data/companies/accounts-concepts.yaml), not code. See docs/companies.md ("Accounts") for every
 * rule below and the upstream quirk that made it necessary.
 */
import { decodeMember, MalformedError, sniff } from './document.js';
import { extractText } from './collect.js';
import type { ExtractResult } from './types.js';

// The extractor's modules, re-exported here as its one entry point: concepts.ts (the concept map),
// decimal.ts (exact decimals, ixt number formats), document.ts (bytes, parser, names, dates), collect.ts
// (the SAX fact collector), figures.ts (headline figures and filing metadata), types.ts (data shapes).
export { conceptMap, type ConceptMap, type FigureName } from './concepts.js';
export { parseDisplayed } from './decimal.js';
export { decToPence as toPence, type Dec } from '../../../../money.js';
export { bareParse, decodeMember, newParser, parseLooseDate, parseMemberName, sniff } from './document.js';
export type { Conflict, ExtractResult, Filing, FilingType, PeriodRow } from './types.js';

/**
 * Extract one document. `name` is the member's file name (company number and balance-sheet date come
 * from it first). Never throws for bad input: a document that cannot be read is a reject with a reason.
 */
export function extractDocument(bytes: Uint8Array, name: string): ExtractResult {
  const kind = sniff(bytes);
  if (kind === 'empty') return { ok: false, reason: 'empty member' };
  if (kind === 'placeholder') return { ok: false, reason: `placeholder file, no accounts (${Buffer.from(bytes.subarray(0, 40)).toString('latin1').trim()})` };
  if (kind === 'binary') return { ok: false, reason: 'not an XML or HTML document (binary content)' };
  if (kind === 'zip') return { ok: false, reason: 'a zip archive, not a document' };
  let text: string;
  try {
    text = decodeMember(bytes);
  } catch {
    return { ok: false, reason: 'not valid UTF-8' };
  }
  try {
    return extractText(text, name);
  } catch (e) {
    if (e instanceof MalformedError) return { ok: false, reason: `malformed XML: ${e.message}` };
    throw e;
  }
}
