/**
 * The SAX fact collector: one pass of saxes over a document, tracking namespace scopes, reading contexts
 * (periods and dimension members), Inline XBRL facts (ix:nonFraction/nonNumeric, exclusions and
 * continuations) and plain XBRL facts, then handing contexts and the wanted facts to `assemble`.
 */
import type { SaxesTagPlain } from 'saxes';
import { compile } from './concepts.js';
import type { Dec } from '../../../../money.js';
import { parseDisplayed } from './decimal.js';
import { newParser } from './document.js';
import { assemble } from './figures.js';
import type { Context, ExtractResult, RawFact } from './types.js';

const IX_NS = new Set(['http://www.xbrl.org/2013/inlineXBRL', 'http://www.xbrl.org/2008/inlineXBRL']);
const XBRLI_NS = 'http://www.xbrl.org/2003/instance';
const XBRLDI_NS = 'http://xbrl.org/2006/xbrldi';
const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

interface OpenFact {
  concept: string;
  attrs: Record<string, string>;
  numeric: boolean;
  /** xsi:nil="true" (resolved when the element opens: its own declarations hold until it closes) */
  nil: boolean;
  buf: string[];
}

/** Cut a QName's prefix: `uk-core:FixedAssets` -> `FixedAssets`. */
const local = (q: string): string => {
  const i = q.indexOf(':');
  return i < 0 ? q : q.slice(i + 1);
};

// What an element is, from its namespace URI and local name (cached per QName while the bindings hold).
const K_OTHER = 0; // XHTML, or a concept element of a plain instance
const K_NONFRACTION = 1;
const K_NONNUMERIC = 2;
const K_EXCLUDE = 3;
const K_CONTINUATION = 4;
const K_IX_OTHER = 5;
const K_CONTEXT = 6;
const K_START = 7;
const K_END = 8;
const K_INSTANT = 9;
const K_XBRLI_OTHER = 10;
const K_XBRLI_ROOT = 11;
const K_EXPLICIT = 12;
const K_TYPED = 13;
const K_XBRLDI_OTHER = 14;

function kindOf(uri: string | undefined, ln: string): number {
  if (uri === undefined) return K_OTHER;
  if (IX_NS.has(uri)) {
    if (ln === 'nonFraction') return K_NONFRACTION;
    if (ln === 'nonNumeric') return K_NONNUMERIC;
    if (ln === 'exclude') return K_EXCLUDE;
    if (ln === 'continuation') return K_CONTINUATION;
    return K_IX_OTHER;
  }
  if (uri === XBRLI_NS) {
    if (ln === 'context') return K_CONTEXT;
    if (ln === 'startDate') return K_START;
    if (ln === 'endDate') return K_END;
    if (ln === 'instant') return K_INSTANT;
    if (ln === 'xbrl') return K_XBRLI_ROOT;
    return K_XBRLI_OTHER;
  }
  if (uri === XBRLDI_NS) {
    if (ln === 'explicitMember') return K_EXPLICIT;
    if (ln === 'typedMember') return K_TYPED;
    return K_XBRLDI_OTHER;
  }
  return K_OTHER;
}

// What the closing of a watched element does.
const W_FACT = 0;
const W_EXCLUDE = 1;
const W_CONTINUATION = 2;
const W_CONTEXT = 3;
const W_FIELD = 4;
const W_MEMBER = 5;
const W_SCOPE = 6;

/**
 * Fact name as written (`uk-core:FixedAssets`) -> its local name when the concept map wants it, else null.
 * Shared by every document of the process (names repeat across documents; bounded).
 */
const wantedByName = new Map<string, string | null>();
function wantedConcept(C: ReturnType<typeof compile>, name: string): string | null {
  let c = wantedByName.get(name);
  if (c === undefined) {
    const l = local(name);
    c = C.wanted.has(l) ? l : null;
    if (wantedByName.size > 50_000) wantedByName.clear();
    wantedByName.set(name, c);
  }
  return c;
}

/**
 * Per-event work is kept small, since the parser emits an event for every XHTML element of the page:
 *  - an unprefixed name is XHTML at the cost of an indexOf (while the default namespace is not an XBRL
 *    one); other kinds are looked up once per QName (the cache is dropped when a binding changes);
 *  - closing an element compares it with the top of a stack of the few elements being watched (facts,
 *    exclusions, continuations, contexts and their fields, namespace scopes), with no name handling, and
 *    the close handler is only set while something is watched (plain instances: always, for the depth);
 *  - namespace declarations are noticed by an attribute handler, so attributes are only walked on the
 *    elements that declare one;
 *  - facts of concepts the concept map does not want are counted but never buffered or built;
 *  - text is only requested from the parser while a kept fact, a context field or a continuation is open.
 */
export function extractText(text: string, name: string): ExtractResult {
  const c = new Collector();
  c.parser.write(text);
  c.parser.close();
  return c.result(name);
}

/**
 * The state of one pass over one document and its SAX handlers (one per event, set on the parser when
 * constructed; the text and close handlers only while needed, see syncText and syncClose).
 */
class Collector {
  readonly C = compile();
  readonly contexts = new Map<string, Context>();
  readonly facts: RawFact[] = [];
  readonly continuations = new Map<string, { text: string; next?: string }>();
  readonly parser = newParser();

  // Namespace scopes: prefix -> URI; the bindings an element added are undone when it closes.
  private readonly ns = new Map<string, string>();
  private readonly kinds = new Map<string, number>();
  private readonly scopes: Array<Array<[string, string | undefined]>> = [];
  // Unprefixed names are XHTML (or plain-instance concepts) unless the default namespace is ix/xbrli/xbrldi.
  private plainDefault = true;
  // set by the attribute handler for the element being opened: it declares a namespace / has a *:nil
  private declares = false;
  private nilAttr = false;

  root: 'ixbrl' | 'xbrl' | undefined = undefined;
  private depth = 0;
  private readonly open: OpenFact[] = [];
  private excludeDepth = 0;
  factCount = 0;
  // context being read
  private ctxId: string | undefined = undefined;
  private ctx: Context | undefined = undefined;
  private ctxField: 'start' | 'end' | 'instant' | 'member' | undefined = undefined;
  private ctxDim = '';
  private ctxBuf = '';
  // continuation being read
  private readonly contStack: Array<{ id: string; next?: string; buf: string[] }> = [];
  // watched elements: the tag object saxes hands to opentag is the one it hands to closetag
  private readonly wTags: SaxesTagPlain[] = [];
  private readonly wKinds: number[] = [];
  // Close events only matter for watched elements (and, in a plain instance, for the depth of its facts):
  // the handler is only set while one is needed, so most XHTML elements close without a call.
  private closeOn = false;
  // Text is only needed inside kept facts, context dates/members and continuations: saxes skips building
  // text (and decoding entities) while no text handler is set, so the handler is set only while one is open.
  private textOn = false;

  constructor() {
    this.parser.on('attribute', this.onattribute);
    this.parser.on('opentag', this.onopen);
    this.parser.on('cdata', this.ontext);
  }

  private watch(tag: SaxesTagPlain, kind: number): void {
    this.wTags.push(tag);
    this.wKinds.push(kind);
    if (!this.closeOn) this.syncClose();
  }

  private syncClose(): void {
    const need = this.root === 'xbrl' || this.wTags.length > 0;
    if (need === this.closeOn) return;
    this.closeOn = need;
    if (need) this.parser.on('closetag', this.onclose);
    else this.parser.off('closetag');
  }

  private syncText(): void {
    const need = this.open.length > 0 || this.ctxField !== undefined || this.contStack.length > 0;
    if (need === this.textOn) return;
    this.textOn = need;
    if (need) this.parser.on('text', this.ontext);
    else this.parser.off('text');
  }

  private readonly onattribute = (a: { name: string }): void => {
    const n = a.name;
    if (n.charCodeAt(0) === 120 /* x */ && n.startsWith('xmlns')) this.declares = true;
    else if (n.charCodeAt(n.length - 1) === 108 /* l */ && n.endsWith(':nil')) this.nilAttr = true;
  };

  /** The element's xmlns declarations bound; undone when it closes (the root's last to the end). */
  private declareNamespaces(tag: SaxesTagPlain, attrs: Record<string, string>): void {
    const ns = this.ns;
    let undo: Array<[string, string | undefined]> | null = null;
    for (const k in attrs) {
      if (k === 'xmlns' || k.startsWith('xmlns:')) {
        const p = k === 'xmlns' ? '' : k.slice(6);
        (undo ??= []).push([p, ns.get(p)]);
        ns.set(p, attrs[k]!);
      }
    }
    if (undo) {
      // the root's bindings last to the end of the document: nothing to undo
      if (this.root !== undefined) {
        this.scopes.push(undo);
        this.watch(tag, W_SCOPE);
      }
      this.bindingsChanged();
    }
  }

  private bindingsChanged(): void {
    this.kinds.clear();
    this.plainDefault = kindOf(this.ns.get(''), '') === K_OTHER;
  }

  /** What an element is (K_*), from its QName under the bindings in scope. */
  private kindOfName(qn: string): number {
    if (this.plainDefault && qn.indexOf(':') < 0) return K_OTHER;
    let kind = this.kinds.get(qn);
    if (kind === undefined) {
      const ci = qn.indexOf(':');
      kind = kindOf(this.ns.get(ci < 0 ? '' : qn.slice(0, ci)), ci < 0 ? qn : qn.slice(ci + 1));
      this.kinds.set(qn, kind);
    }
    return kind;
  }

  private readonly onopen = (tag: SaxesTagPlain): void => {
    const attrs = tag.attributes as Record<string, string>;
    const nil = this.nilAttr;
    this.nilAttr = false;
    if (this.declares) {
      this.declares = false;
      this.declareNamespaces(tag, attrs);
    }
    const qn = tag.name;
    const kind = this.kindOfName(qn);
    if (this.root === undefined) {
      this.root = kind === K_XBRLI_ROOT ? 'xbrl' : 'ixbrl';
      this.depth = 1;
      this.syncClose();
    } else if (this.root === 'xbrl') this.depth++;
    switch (kind) {
      case K_OTHER:
        // plain XBRL: a fact is a child of the root with a contextRef
        if (this.root === 'xbrl' && this.depth === 2 && attrs.contextRef) {
          this.factCount++;
          const concept = local(qn);
          if (this.C.wanted.has(concept)) this.openFact(tag, concept, attrs, attrs.unitRef !== undefined, nil);
        }
        return;
      case K_NONFRACTION:
      case K_NONNUMERIC: {
        if (!attrs.contextRef) return;
        this.factCount++;
        const concept = attrs.name ? wantedConcept(this.C, attrs.name) : this.C.wanted.has('') ? '' : null;
        if (concept !== null) this.openFact(tag, concept, attrs, kind === K_NONFRACTION, nil);
        return;
      }
      case K_EXCLUDE:
        this.excludeDepth++;
        this.watch(tag, W_EXCLUDE);
        return;
      case K_CONTINUATION:
        this.contStack.push({ id: attrs.id ?? '', ...(attrs.continuedAt ? { next: attrs.continuedAt } : {}), buf: [] });
        this.watch(tag, W_CONTINUATION);
        this.syncText();
        return;
      default:
        this.openContextPart(tag, kind, attrs);
    }
  };

  private openFact(tag: SaxesTagPlain, concept: string, attrs: Record<string, string>, numeric: boolean, nil: boolean): void {
    this.open.push({ concept, attrs, numeric, nil: nil && attrsNil(attrs, this.ns), buf: [] });
    this.watch(tag, W_FACT);
    this.syncText();
  }

  /** xbrli:context and its period dates, xbrldi members. */
  private openContextPart(tag: SaxesTagPlain, kind: number, attrs: Record<string, string>): void {
    switch (kind) {
      case K_CONTEXT:
        this.ctxId = attrs.id;
        this.ctx = { dims: new Map(), typed: false };
        this.watch(tag, W_CONTEXT);
        return;
      case K_START:
      case K_END:
      case K_INSTANT:
        if (!this.ctx) return;
        this.ctxField = kind === K_START ? 'start' : kind === K_END ? 'end' : 'instant';
        this.ctxBuf = '';
        this.watch(tag, W_FIELD);
        this.syncText();
        return;
      case K_EXPLICIT:
        if (!this.ctx) return;
        this.ctxField = 'member';
        this.ctxDim = local(attrs.dimension ?? '');
        this.ctxBuf = '';
        this.watch(tag, W_MEMBER);
        this.syncText();
        return;
      case K_TYPED:
        if (this.ctx) this.ctx.typed = true;
        return;
      default:
        return;
    }
  }

  private readonly ontext = (t: string): void => {
    if (this.ctxField) this.ctxBuf += t;
    if (this.excludeDepth > 0) return;
    for (const f of this.open) f.buf.push(t);
    for (const c of this.contStack) c.buf.push(t);
  };

  private readonly onclose = (tag: SaxesTagPlain): void => {
    if (this.root === 'xbrl') this.depth--;
    const wTags = this.wTags;
    let n = wTags.length;
    if (n === 0 || wTags[n - 1] !== tag) return;
    do {
      wTags.pop();
      this.closeWatched(this.wKinds.pop());
      n--;
    } while (n > 0 && wTags[n - 1] === tag);
    this.syncText();
    if (n === 0) this.syncClose();
  };

  /** The closing of a watched element (W_*). */
  private closeWatched(w: number | undefined): void {
    switch (w) {
      case W_FACT: {
        const f = this.open.pop()!;
        this.facts.push(finishFact(f, f.nil));
        break;
      }
      case W_EXCLUDE:
        this.excludeDepth--;
        break;
      case W_CONTINUATION: {
        const c = this.contStack.pop()!;
        this.continuations.set(c.id, { text: c.buf.join(''), ...(c.next ? { next: c.next } : {}) });
        break;
      }
      case W_CONTEXT:
        if (this.ctxId) this.contexts.set(this.ctxId, this.ctx!);
        this.ctx = undefined;
        this.ctxId = undefined;
        this.ctxField = undefined;
        break;
      case W_FIELD:
        if (this.ctx && this.ctxField && this.ctxField !== 'member') this.ctx[this.ctxField] = this.ctxBuf.trim();
        this.ctxField = undefined;
        break;
      case W_MEMBER:
        if (this.ctx && this.ctxField === 'member') this.ctx.dims.set(this.ctxDim, local(this.ctxBuf.trim()));
        this.ctxField = undefined;
        break;
      case W_SCOPE: {
        const undo = this.scopes.pop()!;
        for (let i = undo.length - 1; i >= 0; i--) {
          const [p, prev] = undo[i]!;
          if (prev === undefined) this.ns.delete(p);
          else this.ns.set(p, prev);
        }
        this.bindingsChanged();
        break;
      }
    }
  }

  /** After the pass: continuation chains joined, then the figures assembled. */
  result(name: string): ExtractResult {
    const root = this.root;
    if (!root) return { ok: false, reason: 'no root element' };
    if (this.factCount === 0) return { ok: false, reason: root === 'xbrl' ? 'no XBRL facts in the instance' : 'no Inline XBRL facts in the document' };
    // continuation chains of nonNumeric facts
    for (const f of this.facts) {
      let next = f.continuedAt;
      const seen = new Set<string>();
      while (next && !seen.has(next)) {
        seen.add(next);
        const c = this.continuations.get(next);
        if (!c) break;
        f.text += c.text;
        next = c.next;
      }
    }
    return assemble(this.C, name, root, this.contexts, this.facts, this.factCount);
  }
}

function attrsNil(attrs: Record<string, string>, ns: Map<string, string>): boolean {
  for (const k in attrs) {
    if (k.endsWith(':nil') && ns.get(k.slice(0, -4)) === XSI_NS) return attrs[k] === 'true' || attrs[k] === '1';
  }
  return false;
}

function finishFact(o: OpenFact, nil: boolean): RawFact {
  const a = o.attrs;
  const text = o.buf.length === 1 ? o.buf[0]! : o.buf.join('');
  const format = a.format;
  const f: RawFact = {
    concept: o.concept, ctx: a.contextRef!, numeric: o.numeric, value: null, displayed: null, scale: 0,
    decimals: a.decimals, text, format, continuedAt: a.continuedAt,
  };
  if (!o.numeric || nil) return f;
  let displayed: Dec | null | undefined;
  let scale = 0;
  let neg = false;
  const sc = a.scale;
  const sign = a.sign;
  if (format !== undefined || sc !== undefined || sign !== undefined) {
    // Inline XBRL: displayed text under a format, then sign and scale
    displayed = parseDisplayed(text, format);
    scale = sc !== undefined ? Number(sc.trim()) : 0;
    if (!Number.isInteger(scale)) scale = 0;
    neg = sign === '-';
  } else {
    // plain XBRL (or ix without attributes): the lexical xs:decimal, sign in the text
    const t = text.trim();
    neg = t.startsWith('-');
    displayed = parseDisplayed(neg ? t.slice(1) : t, undefined);
  }
  if (displayed === undefined || displayed === null) return f;
  f.scale = scale;
  f.value = { n: neg ? -displayed.n : displayed.n, e: displayed.e + scale };
  f.displayed = displayed;
  return f;
}
