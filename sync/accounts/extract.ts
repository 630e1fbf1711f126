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
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { loadData } from '../../src/data.js';

// ---------------------------------------------------------------------------------------------------
// The concept map (data/companies/accounts-concepts.yaml)

export type FigureName =
  | 'revenue' | 'cost_of_sales' | 'gross_profit' | 'profit_before_tax' | 'fixed_assets' | 'current_assets'
  | 'prepayments_outside_current_assets' | 'called_up_share_capital_not_paid' | 'net_current_assets'
  | 'total_assets_less_current_liabilities' | 'total_assets_reported' | 'cash' | 'net_assets' | 'employees'
  | 'directors_remuneration';

interface FigureSpec {
  kind: 'money' | 'count';
  period: 'duration' | 'instant';
  concepts: string[];
}

export interface ConceptMap {
  figures: Record<FigureName, FigureSpec>;
  current_liabilities: {
    concepts: string[];
    dimension_members: Record<string, string[]>;
    undimensioned_concepts: string[];
  };
  ignored_dimensions: string[];
  metadata: {
    accounts_type_facts: string[];
    accounts_type_dimension: string;
    accounts_type_members: Record<string, string>;
    standard_facts: string[];
    standard_dimension: string;
    standard_members: Record<string, string>;
    micro_standards: string[];
    dormant_facts: string[];
    company_number_facts: string[];
    company_name_facts: string[];
    balance_sheet_date_facts: string[];
  };
}

/** Lookup tables built once per process from the concept map. */
interface Compiled {
  map: ConceptMap;
  /** concept local name -> [figure, priority] pairs (a concept may serve two figures). */
  byConcept: Map<string, Array<{ figure: FigureName; priority: number }>>;
  clConcepts: Set<string>;
  clUndim: Set<string>;
  ignoredDims: Set<string>;
  /** Every concept whose facts the extractor keeps (headline, current liabilities, metadata). */
  wanted: Set<string>;
}

let compiled: Compiled | undefined;

export function conceptMap(): ConceptMap {
  return loadData<ConceptMap>('companies/accounts-concepts');
}

function compile(): Compiled {
  if (compiled) return compiled;
  const map = conceptMap();
  const byConcept = new Map<string, Array<{ figure: FigureName; priority: number }>>();
  for (const [figure, spec] of Object.entries(map.figures) as Array<[FigureName, FigureSpec]>) {
    spec.concepts.forEach((c, i) => {
      const l = byConcept.get(c) ?? [];
      l.push({ figure, priority: i });
      byConcept.set(c, l);
    });
  }
  const m = map.metadata;
  const wanted = new Set<string>([
    ...byConcept.keys(), ...map.current_liabilities.concepts, ...map.current_liabilities.undimensioned_concepts,
    ...m.accounts_type_facts, ...m.standard_facts, ...m.dormant_facts, ...m.company_number_facts,
    ...m.company_name_facts, ...m.balance_sheet_date_facts, 'DateAuthorisationFinancialStatementsForIssue',
  ]);
  compiled = {
    map, byConcept, wanted,
    clConcepts: new Set(map.current_liabilities.concepts),
    clUndim: new Set(map.current_liabilities.undimensioned_concepts),
    ignoredDims: new Set(map.ignored_dimensions),
  };
  return compiled;
}

// ---------------------------------------------------------------------------------------------------
// Exact decimals: value = n x 10^e (no floating point on amounts)

export interface Dec {
  n: bigint;
  e: number;
}

const TEN = 10n;
function pow10(k: number): bigint {
  let r = 1n;
  for (let i = 0; i < k; i++) r *= TEN;
  return r;
}

/** Round to a whole number of 10^target units, halves away from zero. */
function rescale(d: Dec, target: number): bigint {
  if (d.e >= target) return d.n * pow10(d.e - target);
  const div = pow10(target - d.e);
  const q = d.n / div;
  const r = d.n % div;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= div) return d.n < 0n ? q - 1n : q + 1n;
  return q;
}

/** Whole pence, halves away from zero (docs/companies.md: "Rounding"). */
export function toPence(d: Dec): bigint {
  return rescale(d, -2);
}

function decEqual(a: Dec, b: Dec): boolean {
  const e = Math.min(a.e, b.e);
  return rescale(a, e) === rescale(b, e);
}

/** `123456` pence -> `'1234.56'`. */
export function penceToString(p: bigint): string {
  const neg = p < 0n;
  const a = neg ? -p : p;
  const s = a.toString().padStart(3, '0');
  return `${neg ? '-' : ''}${s.slice(0, -2)}.${s.slice(-2)}`;
}

/**
 * Parse the displayed text of an ix:nonFraction under its `format` (the ixt transformation registries
 * 1-4: numdotdecimal/numcommadot, numcommadecimal/numdotcomma, zerodash/numdash/fixed-zero, nocontent,
 * plus no format at all). Returns undefined when the text is not a number in that format, null for
 * nocontent/fixed-empty (no value).
 */
export function parseDisplayed(text: string, format: string | undefined): Dec | null | undefined {
  const f = format ? format.slice(format.indexOf(':') + 1).toLowerCase() : '';
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

// ---------------------------------------------------------------------------------------------------
// Output rows

export type FilingType = 'full' | 'abridged' | 'filleted' | 'abbreviated' | 'micro' | 'dormant';

export interface PeriodRow {
  period_end: string;
  period_start: string | null;
  is_current: boolean;
  /** Money in pence (exact); null when the filing does not state the figure (never 0 for "absent"). */
  revenue: bigint | null;
  cost_of_sales: bigint | null;
  gross_profit: bigint | null;
  profit_before_tax: bigint | null;
  fixed_assets: bigint | null;
  current_assets: bigint | null;
  current_liabilities: bigint | null;
  /** 'reported' (creditors within one year), 'undimensioned' (CA − NCA equals un-dimensioned Creditors), 'derived'. */
  current_liabilities_basis: 'reported' | 'undimensioned' | 'derived' | null;
  net_current_assets: bigint | null;
  total_assets_less_current_liabilities: bigint | null;
  total_assets: bigint | null;
  /** 'reported' (IFRS Assets), 'sum' (share capital not paid + fixed + current assets + prepayments), 'talcl' (TALCL + current liabilities). */
  total_assets_basis: 'reported' | 'sum' | 'talcl' | null;
  cash: bigint | null;
  net_assets: bigint | null;
  /** Which concept gave net_assets (NetAssetsLiabilities, …, Equity). */
  net_assets_concept: string | null;
  employees: number | null;
  directors_remuneration: bigint | null;
}

export interface Conflict {
  concept: string;
  context: string;
  values: string[];
}

export interface Filing {
  company_number: string;
  company_name: string | null;
  balance_sheet_date: string;
  period_start: string | null;
  filing_type: FilingType | null;
  accounting_standard: string | null;
  dormant: boolean | null;
  format: 'ixbrl' | 'xbrl';
  /** Date of approval (DateAuthorisationFinancialStatementsForIssue) when it parses as a date. */
  date_authorised: string | null;
  facts: number;
  duplicates: number;
  conflicts: Conflict[];
  periods: PeriodRow[];
}

export type ExtractResult = { ok: true; filing: Filing } | { ok: false; reason: string };

// ---------------------------------------------------------------------------------------------------
// Parsing

const IX_NS = new Set(['http://www.xbrl.org/2013/inlineXBRL', 'http://www.xbrl.org/2008/inlineXBRL']);
const XBRLI_NS = 'http://www.xbrl.org/2003/instance';
const XBRLDI_NS = 'http://xbrl.org/2006/xbrldi';
const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

/** Entities of XHTML that are not XML's own (saxes knows amp, lt, gt, quot, apos). */
const HTML_ENTITIES: Record<string, string> = {
  nbsp: '\u00a0', pound: '£', euro: '€', copy: '©', reg: '®', ndash: '–', mdash: '—', lsquo: '‘', rsquo: '’',
  ldquo: '“', rdquo: '”', hellip: '…', bull: '•', middot: '·', deg: '°', sect: '§', para: '¶', times: '×',
  shy: '\u00ad', ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009', eacute: 'é', egrave: 'è', aacute: 'á',
  agrave: 'à', ouml: 'ö', uuml: 'ü', auml: 'ä', ccedil: 'ç', iacute: 'í', oacute: 'ó', uacute: 'ú',
};

interface Context {
  start?: string;
  end?: string;
  instant?: string;
  /** dimension local name -> member local name (explicit members); typed members make `typed` true. */
  dims: Map<string, string>;
  typed: boolean;
}

interface RawFact {
  concept: string;
  ctx: string;
  numeric: boolean;
  /** Numeric value after sign and scale (null: nil or no content). */
  value: Dec | null;
  /** Displayed number before scale (counts with a negative scale use it). */
  displayed: Dec | null;
  scale: number;
  decimals: string | undefined;
  text: string;
  format: string | undefined;
  continuedAt: string | undefined;
}

interface OpenFact {
  concept: string;
  attrs: Record<string, string>;
  numeric: boolean;
  buf: string[];
  depth: number;
}

/** Cut a QName's prefix: `uk-core:FixedAssets` -> `FixedAssets`. */
const local = (q: string): string => {
  const i = q.indexOf(':');
  return i < 0 ? q : q.slice(i + 1);
};

class MalformedError extends Error {}

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

function isDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
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

function extractText(text: string, name: string): ExtractResult {
  const C = compile();
  const contexts = new Map<string, Context>();
  const facts: RawFact[] = [];
  const continuations = new Map<string, { text: string; next?: string }>();

  // Namespace scopes: prefix -> URI, a stack of the bindings each element added.
  const ns = new Map<string, string>();
  // bindings undone when the element that declared them closes (only elements with declarations are stacked)
  const nsUndo: Array<{ depth: number; undo: Array<[string, string | undefined]> }> = [];
  /** True while unprefixed elements are XHTML (the default namespace is not the XBRL instance one). */
  let xhtmlDefault = true;

  let root: 'ixbrl' | 'xbrl' | undefined;
  let depth = 0;
  const open: OpenFact[] = [];
  let excludeDepth = 0;
  let factCount = 0;
  // context being read
  let ctxId: string | undefined;
  let ctx: Context | undefined;
  let ctxField: 'start' | 'end' | 'instant' | 'member' | undefined;
  let ctxDim = '';
  let ctxBuf = '';
  // continuation being read
  const contStack: Array<{ id: string; next?: string; buf: string[]; depth: number }> = [];

  const parser = newParser();
  // Text is only needed inside facts, context dates/members and continuations: saxes skips building text
  // (and decoding entities) while no text handler is set, so the handler is set only while one is open.
  let textOn = false;
  const syncText = () => {
    const need = open.length > 0 || ctxField !== undefined || contStack.length > 0;
    if (need === textOn) return;
    textOn = need;
    if (need) parser.on('text', ontext);
    else parser.off('text');
  };
  parser.on('opentag', (tag: SaxesTagPlain) => {
    openTag(tag);
    syncText();
  });
  const openTag = (tag: SaxesTagPlain) => {
    depth++;
    const attrs = tag.attributes as Record<string, string>;
    // namespace declarations on this element
    let undo: Array<[string, string | undefined]> | null = null;
    for (const k in attrs) {
      if (k.charCodeAt(0) === 120 /* x */ && (k === 'xmlns' || k.startsWith('xmlns:'))) {
        const p = k === 'xmlns' ? '' : k.slice(6);
        (undo ??= []).push([p, ns.get(p)]);
        ns.set(p, attrs[k]!);
        if (p === '') xhtmlDefault = attrs[k] !== XBRLI_NS;
      }
    }
    if (undo) nsUndo.push({ depth, undo });
    const qn = tag.name;
    const ci = qn.indexOf(':');
    // fast path: an unprefixed (XHTML) element of an Inline XBRL document is never a fact or a context part
    if (ci < 0 && root === 'ixbrl' && xhtmlDefault) return;
    const uri = ns.get(ci < 0 ? '' : qn.slice(0, ci));
    const ln = ci < 0 ? qn : qn.slice(ci + 1);
    if (depth === 1) root = uri === XBRLI_NS && ln === 'xbrl' ? 'xbrl' : 'ixbrl';

    if (uri !== undefined && IX_NS.has(uri)) {
      if (ln === 'nonFraction' || ln === 'nonNumeric') {
        const nm = attrs.name;
        const concept = nm ? local(nm) : '';
        if (!attrs.contextRef) return;
        open.push({ concept, attrs, numeric: ln === 'nonFraction', buf: [], depth });
      } else if (ln === 'exclude') {
        excludeDepth++;
      } else if (ln === 'continuation') {
        contStack.push({ id: attrs.id ?? '', ...(attrs.continuedAt ? { next: attrs.continuedAt } : {}), buf: [], depth });
      }
      return;
    }
    if (uri === XBRLI_NS) {
      if (ln === 'context') {
        ctxId = attrs.id;
        ctx = { dims: new Map(), typed: false };
      } else if (ctx) {
        if (ln === 'startDate') ctxField = 'start';
        else if (ln === 'endDate') ctxField = 'end';
        else if (ln === 'instant') ctxField = 'instant';
        ctxBuf = '';
      }
      return;
    }
    if (uri === XBRLDI_NS && ctx) {
      if (ln === 'explicitMember') {
        ctxField = 'member';
        ctxDim = local(attrs.dimension ?? '');
        ctxBuf = '';
      } else if (ln === 'typedMember') {
        ctx.typed = true;
      }
      return;
    }
    // plain XBRL: a fact is a child of the root with a contextRef
    if (root === 'xbrl' && depth === 2 && attrs.contextRef) {
      open.push({ concept: ln, attrs, numeric: attrs.unitRef !== undefined, buf: [], depth });
    }
  };

  const ontext = (t: string) => {
    if (ctxField) ctxBuf += t;
    if (excludeDepth > 0) return;
    for (const f of open) f.buf.push(t);
    for (const c of contStack) c.buf.push(t);
  };
  parser.on('cdata', ontext);

  parser.on('closetag', (tag: SaxesTagPlain) => {
    closeTag(tag);
    syncText();
  });
  const closeTag = (tag: SaxesTagPlain) => {
    const top = open[open.length - 1];
    const qn = tag.name;
    const ci = qn.indexOf(':');
    // the URI is only needed for ix/xbrli/xbrldi elements (prefixed, or unprefixed in a plain instance)
    const uri = ci < 0 && root === 'ixbrl' && xhtmlDefault ? undefined : ns.get(ci < 0 ? '' : qn.slice(0, ci));
    const ln = ci < 0 ? qn : qn.slice(ci + 1);
    if (top && top.depth === depth) {
      open.pop();
      factCount++;
      if (C.wanted.has(top.concept)) facts.push(finishFact(top, attrsNil(top.attrs, ns)));
    } else if (uri !== undefined && IX_NS.has(uri)) {
      if (ln === 'exclude') excludeDepth = Math.max(0, excludeDepth - 1);
      const c = contStack[contStack.length - 1];
      if (ln === 'continuation' && c && c.depth === depth) {
        contStack.pop();
        continuations.set(c.id, { text: c.buf.join(''), ...(c.next ? { next: c.next } : {}) });
      }
    } else if (uri === XBRLI_NS && ctx) {
      if (ln === 'context') {
        if (ctxId) contexts.set(ctxId, ctx);
        ctx = undefined;
        ctxId = undefined;
      } else if (ctxField && ctxField !== 'member') {
        ctx[ctxField] = ctxBuf.trim();
        ctxField = undefined;
      }
    } else if (uri === XBRLDI_NS && ctx && ctxField === 'member') {
      ctx.dims.set(ctxDim, local(ctxBuf.trim()));
      ctxField = undefined;
    }
    const scope = nsUndo[nsUndo.length - 1];
    if (scope && scope.depth === depth) {
      nsUndo.pop();
      for (let i = scope.undo.length - 1; i >= 0; i--) {
        const [p, prev] = scope.undo[i]!;
        if (prev === undefined) ns.delete(p);
        else ns.set(p, prev);
        if (p === '') xhtmlDefault = prev !== XBRLI_NS;
      }
    }
    depth--;
  };

  parser.write(text);
  parser.close();

  if (!root) return { ok: false, reason: 'no root element' };
  if (factCount === 0) return { ok: false, reason: root === 'xbrl' ? 'no XBRL facts in the instance' : 'no Inline XBRL facts in the document' };

  // continuation chains of nonNumeric facts
  for (const f of facts) {
    let next = f.continuedAt;
    const seen = new Set<string>();
    while (next && !seen.has(next)) {
      seen.add(next);
      const c = continuations.get(next);
      if (!c) break;
      f.text += c.text;
      next = c.next;
    }
  }
  return assemble(C, name, root, contexts, facts, factCount);
}

function attrsNil(attrs: Record<string, string>, ns: Map<string, string>): boolean {
  for (const k in attrs) {
    if (k.endsWith(':nil') && ns.get(k.slice(0, -4)) === XSI_NS) return attrs[k] === 'true' || attrs[k] === '1';
  }
  return false;
}

function finishFact(o: OpenFact, nil: boolean): RawFact {
  const a = o.attrs;
  const text = o.buf.join('');
  const base = {
    concept: o.concept, ctx: a.contextRef!, numeric: o.numeric, decimals: a.decimals, text, format: a.format,
    continuedAt: a.continuedAt, scale: 0,
  };
  if (!o.numeric) return { ...base, value: null, displayed: null };
  if (nil) return { ...base, value: null, displayed: null };
  let displayed: Dec | null | undefined;
  let scale = 0;
  let neg = false;
  if (a.format !== undefined || a.scale !== undefined || a.sign !== undefined) {
    // Inline XBRL: displayed text under a format, then sign and scale
    displayed = parseDisplayed(text, a.format);
    scale = a.scale !== undefined ? Number(a.scale.trim()) : 0;
    if (!Number.isInteger(scale)) scale = 0;
    neg = a.sign === '-';
  } else {
    // plain XBRL (or ix without attributes): the lexical xs:decimal, sign in the text
    const t = text.trim();
    neg = t.startsWith('-');
    displayed = parseDisplayed(neg ? t.slice(1) : t, undefined);
  }
  if (displayed === undefined || displayed === null) return { ...base, value: null, displayed: null };
  const value = { n: neg ? -displayed.n : displayed.n, e: displayed.e + scale };
  return { ...base, scale, value, displayed };
}

// ---------------------------------------------------------------------------------------------------
// From facts and contexts to the filing and period rows

function plain(C: Compiled, c: Context): boolean {
  if (c.typed) return false;
  for (const d of c.dims.keys()) if (!C.ignoredDims.has(d)) return false;
  return true;
}

/** The date a context "is at": its instant, or the end of its duration. */
function ctxDate(c: Context): string | undefined {
  return c.instant ?? c.end;
}

function assemble(
  C: Compiled, name: string, format: 'ixbrl' | 'xbrl', contexts: Map<string, Context>, facts: RawFact[], factCount: number,
): ExtractResult {
  const md = C.map.metadata;
  const fromName = parseMemberName(name);
  const textOf = (concepts: string[]): string | undefined => {
    for (const c of concepts) {
      const f = facts.find((x) => x.concept === c && x.text.trim() !== '');
      if (f) return f.text.replace(/\s+/g, ' ').trim();
    }
    return undefined;
  };
  // company number: member name, else the registered-number fact
  let company = fromName?.company_number;
  if (!company) {
    const t = textOf(md.company_number_facts)?.replace(/\s+/g, '').toUpperCase();
    if (t && /^[A-Z0-9]{1,8}$/.test(t)) company = t.padStart(8, '0');
  }
  if (!company) return { ok: false, reason: 'no company number (member name not Prod…_<number>_<date> and no registered-number fact)' };

  // dedupe numeric facts per (concept, context); conflicts flagged
  const seen = new Map<string, RawFact>();
  const conflicts: Conflict[] = [];
  let duplicates = 0;
  const numeric: RawFact[] = [];
  for (const f of facts) {
    if (!f.numeric) continue;
    const key = `${f.concept}\u0000${f.ctx}`;
    const prev = seen.get(key);
    if (!prev) {
      seen.set(key, f);
      numeric.push(f);
      continue;
    }
    duplicates++;
    if (prev.value === null && f.value !== null) {
      numeric[numeric.indexOf(prev)] = f;
      seen.set(key, f);
    } else if (prev.value && f.value && !decEqual(prev.value, f.value) && !consistent(prev, f)) {
      const c = conflicts.find((x) => x.concept === f.concept && x.context === f.ctx);
      const v = decString(f.value);
      if (c) {
        if (!c.values.includes(v)) c.values.push(v);
      } else conflicts.push({ concept: f.concept, context: f.ctx, values: [decString(prev.value), v] });
    }
  }

  // balance-sheet date: member name, else BalanceSheetDate, else the latest plain context date
  let bsd = fromName?.balance_sheet_date || undefined;
  if (!bsd) {
    const f = facts.find((x) => md.balance_sheet_date_facts.includes(x.concept));
    const c = f ? contexts.get(f.ctx) : undefined;
    bsd = (c && ctxDate(c)) ?? (f ? parseLooseDate(f.text) ?? undefined : undefined);
  }
  const plainDates = new Set<string>();
  for (const c of contexts.values()) if (plain(C, c)) {
    const d = ctxDate(c);
    if (d && isDate(d) && d >= '1900-01-01') plainDates.add(d);
  }
  if (!bsd) bsd = [...plainDates].sort().pop();
  if (!bsd) return { ok: false, reason: 'no balance-sheet date (member name, BalanceSheetDate or contexts)' };

  // figures per period end
  const hasHeadline = new Set<string>();
  for (const f of numeric) {
    if (f.value === null || !C.byConcept.has(f.concept)) continue;
    const c = contexts.get(f.ctx);
    if (c && plain(C, c)) {
      const d = ctxDate(c);
      if (d) hasHeadline.add(d);
    }
  }
  const comparative = [...hasHeadline].filter((d) => d < bsd! && d >= '1900-01-01' && isDate(d)).sort().pop();
  const ends = [bsd, ...(comparative ? [comparative] : [])];
  const periods = ends.map((end) => periodRow(C, end, end === bsd, contexts, numeric));

  // filing metadata from the dimension member of the metadata facts' contexts
  const memberOf = (factNames: string[], dim: string): string | undefined => {
    for (const f of facts) {
      if (!factNames.includes(f.concept)) continue;
      const m = contexts.get(f.ctx)?.dims.get(dim);
      if (m) return m;
    }
    return undefined;
  };
  const typeMember = memberOf(md.accounts_type_facts, md.accounts_type_dimension);
  const stdMember = memberOf(md.standard_facts, md.standard_dimension);
  const standard = stdMember ? md.standard_members[stdMember] ?? stdMember : null;
  const dormantFact = facts.find((f) => md.dormant_facts.includes(f.concept));
  const dormant = dormantFact ? booleanFact(dormantFact) : null;
  let filingType: FilingType | null = typeMember ? ((md.accounts_type_members[typeMember] as FilingType | undefined) ?? null) : null;
  if (standard && md.micro_standards.includes(standard)) filingType = 'micro';
  if (dormant === true) filingType = 'dormant';
  const authorised = facts.find((f) => f.concept === 'DateAuthorisationFinancialStatementsForIssue');
  const current = periods[0]!;
  return {
    ok: true,
    filing: {
      company_number: company,
      company_name: textOf(md.company_name_facts) ?? null,
      balance_sheet_date: bsd,
      period_start: current.period_start,
      filing_type: filingType,
      accounting_standard: standard,
      dormant,
      format,
      date_authorised: authorised ? dateOfFact(authorised, contexts) : null,
      facts: factCount,
      duplicates,
      conflicts,
      periods: periods.filter((p, i) => i === 0 || hasAny(p)),
    },
  };
}

function dateOfFact(f: RawFact, contexts: Map<string, Context>): string | null {
  return parseLooseDate(f.text) ?? (contexts.get(f.ctx)?.instant ?? null);
}

function booleanFact(f: RawFact): boolean | null {
  const fmt = (f.format ?? '').toLowerCase();
  if (fmt.endsWith('booleantrue') || fmt.endsWith('fixed-true')) return true;
  if (fmt.endsWith('booleanfalse') || fmt.endsWith('fixed-false')) return false;
  const t = f.text.trim().toLowerCase();
  return t === 'true' ? true : t === 'false' ? false : null;
}

/** Two facts stated with different precision agree when equal at the coarser `decimals`. */
function consistent(a: RawFact, b: RawFact): boolean {
  const da = a.decimals && a.decimals !== 'INF' ? Number(a.decimals) : Infinity;
  const db = b.decimals && b.decimals !== 'INF' ? Number(b.decimals) : Infinity;
  const d = Math.min(da, db);
  if (!Number.isFinite(d) || !a.value || !b.value) return false;
  return rescale(a.value, -d) === rescale(b.value, -d);
}

function decString(d: Dec): string {
  if (d.e >= 0) return (d.n * pow10(d.e)).toString();
  const neg = d.n < 0n;
  const s = (neg ? -d.n : d.n).toString().padStart(-d.e + 1, '0');
  return `${neg ? '-' : ''}${s.slice(0, d.e)}.${s.slice(d.e)}`;
}

const MONEY_FIGURES: Array<keyof PeriodRow & FigureName> = [
  'revenue', 'cost_of_sales', 'gross_profit', 'profit_before_tax', 'fixed_assets', 'current_assets',
  'net_current_assets', 'total_assets_less_current_liabilities', 'cash', 'net_assets', 'directors_remuneration',
];

function hasAny(p: PeriodRow): boolean {
  return MONEY_FIGURES.some((k) => p[k] !== null) || p.employees !== null || p.total_assets !== null;
}

interface Picked {
  value: Dec;
  concept: string;
  fact: RawFact;
}

function periodRow(C: Compiled, end: string, isCurrent: boolean, contexts: Map<string, Context>, facts: RawFact[]): PeriodRow {
  // the main duration ending here: the longest plain duration context that carries a headline fact
  let start: string | null = null;
  for (const f of facts) {
    const c = contexts.get(f.ctx);
    if (!c || !c.start || c.end !== end || !plain(C, c) || !C.byConcept.has(f.concept)) continue;
    if (isDate(c.start) && (start === null || c.start < start)) start = c.start;
  }
  if (start === null) {
    for (const c of contexts.values()) {
      if (c.start && c.end === end && plain(C, c) && isDate(c.start) && (start === null || c.start < start)) start = c.start;
    }
  }
  const best = new Map<FigureName, { pr: number; p: Picked }>();
  for (const f of facts) {
    if (f.value === null) continue;
    const targets = C.byConcept.get(f.concept);
    if (!targets) continue;
    const c = contexts.get(f.ctx);
    if (!c || !plain(C, c)) continue;
    for (const t of targets) {
      const spec = C.map.figures[t.figure];
      if (spec.period === 'instant' ? ctxDate(c) !== end : !(c.start && c.end === end)) continue;
      // a duration figure must span the period's main duration when there is one
      if (spec.period === 'duration' && start && c.start !== start) continue;
      const cur = best.get(t.figure);
      if (!cur || t.priority < cur.pr) best.set(t.figure, { pr: t.priority, p: { value: f.value, concept: f.concept, fact: f } });
    }
  }
  const pence = (k: FigureName): bigint | null => {
    const b = best.get(k);
    return b ? toPence(b.p.value) : null;
  };
  const row: PeriodRow = {
    period_end: end,
    period_start: start,
    is_current: isCurrent,
    revenue: pence('revenue'),
    cost_of_sales: pence('cost_of_sales'),
    gross_profit: pence('gross_profit'),
    profit_before_tax: pence('profit_before_tax'),
    fixed_assets: pence('fixed_assets'),
    current_assets: pence('current_assets'),
    current_liabilities: null,
    current_liabilities_basis: null,
    net_current_assets: pence('net_current_assets'),
    total_assets_less_current_liabilities: pence('total_assets_less_current_liabilities'),
    total_assets: null,
    total_assets_basis: null,
    cash: pence('cash'),
    net_assets: pence('net_assets'),
    net_assets_concept: best.get('net_assets')?.p.concept ?? null,
    employees: null,
    directors_remuneration: pence('directors_remuneration'),
  };
  // employees: a whole count; a negative scale on a count is a tagging slip, so the displayed integer is used
  const emp = best.get('employees');
  if (emp) {
    const f = emp.p.fact;
    const v = f.scale < 0 && f.displayed ? f.displayed : emp.p.value;
    const n = rescale(v, 0);
    row.employees = Number(n < 0n ? -n : n);
  }
  // current liabilities (creditors due within one year)
  const cl = currentLiabilities(C, end, contexts, facts);
  const prepay = pence('prepayments_outside_current_assets');
  if (cl !== null) {
    row.current_liabilities = cl;
    row.current_liabilities_basis = 'reported';
  } else {
    const undim = undimensionedCreditors(C, end, contexts, facts);
    if (undim !== null && row.current_assets !== null && row.net_current_assets !== null &&
      row.current_assets + (prepay ?? 0n) - row.net_current_assets === undim) {
      row.current_liabilities = undim;
      row.current_liabilities_basis = 'undimensioned';
    } else if (row.current_assets !== null && row.net_current_assets !== null) {
      row.current_liabilities = row.current_assets + (prepay ?? 0n) - row.net_current_assets;
      row.current_liabilities_basis = 'derived';
    }
  }
  // total assets (docs/companies.md "Total assets")
  const reported = pence('total_assets_reported');
  const unpaid = pence('called_up_share_capital_not_paid');
  if (reported !== null) {
    row.total_assets = reported;
    row.total_assets_basis = 'reported';
  } else if (row.fixed_assets === null && row.total_assets_less_current_liabilities !== null && row.current_liabilities !== null) {
    row.total_assets = row.total_assets_less_current_liabilities + row.current_liabilities;
    row.total_assets_basis = 'talcl';
  } else if (row.fixed_assets !== null || row.current_assets !== null) {
    row.total_assets = (unpaid ?? 0n) + (row.fixed_assets ?? 0n) + (row.current_assets ?? 0n) + (prepay ?? 0n);
    row.total_assets_basis = 'sum';
  }
  return row;
}

function currentLiabilities(C: Compiled, end: string, contexts: Map<string, Context>, facts: RawFact[]): bigint | null {
  const members = C.map.current_liabilities.dimension_members;
  for (const concept of C.map.current_liabilities.concepts) {
    for (const f of facts) {
      if (f.concept !== concept || f.value === null) continue;
      const c = contexts.get(f.ctx);
      if (!c || c.typed || ctxDate(c) !== end) continue;
      let match = false;
      let other = false;
      for (const [d, m] of c.dims) {
        if (C.ignoredDims.has(d)) continue;
        if (members[d]?.includes(m)) match = true;
        else other = true;
      }
      if (match && !other) return toPence(f.value);
    }
  }
  for (const concept of C.map.current_liabilities.undimensioned_concepts) {
    for (const f of facts) {
      if (f.concept !== concept || f.value === null) continue;
      const c = contexts.get(f.ctx);
      if (c && plain(C, c) && ctxDate(c) === end) return toPence(f.value);
    }
  }
  return null;
}

function undimensionedCreditors(C: Compiled, end: string, contexts: Map<string, Context>, facts: RawFact[]): bigint | null {
  for (const f of facts) {
    if (!C.clConcepts.has(f.concept) || C.clUndim.has(f.concept) || f.value === null) continue;
    const c = contexts.get(f.ctx);
    if (c && plain(C, c) && ctxDate(c) === end) return toPence(f.value);
  }
  return null;
}

/** The bench's baseline: the same parser over the same text with no handlers. */
export function bareParse(bytes: Uint8Array): void {
  const p = newParser();
  p.write(decodeMember(bytes));
  p.close();
}
