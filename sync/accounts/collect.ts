/**
 * The SAX fact collector: one pass of saxes over a document, tracking namespace scopes, reading contexts
 * (periods and dimension members), Inline XBRL facts (ix:nonFraction/nonNumeric, exclusions and
 * continuations) and plain XBRL facts, then handing contexts and the wanted facts to `assemble`.
 */
import type { SaxesTagPlain } from 'saxes';
import { compile } from './concepts.js';
import { parseDisplayed, type Dec } from './decimal.js';
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
  buf: string[];
  depth: number;
}

/** Cut a QName's prefix: `uk-core:FixedAssets` -> `FixedAssets`. */
const local = (q: string): string => {
  const i = q.indexOf(':');
  return i < 0 ? q : q.slice(i + 1);
};

export function extractText(text: string, name: string): ExtractResult {
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
