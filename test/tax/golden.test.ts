/**
 * Golden tax cases: figures taken from PUBLISHED sources (HMRC / gov.uk examples, Budget tables, Hansard written
 * answers, SPICe / CIOT tables ...), one YAML file per topic in test/fixtures/tax/golden/tax/. Every case cites its source URL.
 * Each case is run through the local backend exactly as the CLI would call it. See test/fixtures/tax/golden/README.md.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { HandlerContext, HttpMethod } from '../../src/contract/types.js';
import { handlerCtx } from '../support/handler-context.js';
import { callRoute } from '../support/route.js';

const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'tax', 'golden', 'tax');
const DEFAULT_TOLERANCE = 0.005;

interface GoldenCase {
  id: string;
  source: string;
  note?: string;
  derivation?: string;
  route: string;
  body: Record<string, unknown>;
  expect: Record<string, unknown>;
  tolerance?: number;
  file: string;
}

const ctx: HandlerContext = handlerCtx();

function loadCases(): GoldenCase[] {
  const files = readdirSync(GOLDEN_DIR)
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .sort();
  const out: GoldenCase[] = [];
  for (const file of files) {
    const doc: unknown = parse(readFileSync(join(GOLDEN_DIR, file), 'utf8'));
    if (doc === null || doc === undefined) continue;
    if (!Array.isArray(doc)) throw new Error(`${file}: top level must be a list of cases`);
    for (const c of doc) out.push({ ...(c as Omit<GoldenCase, 'file'>), file });
  }
  return out;
}

/** Reads a dotted path (`a.b.0.c`; numeric segments index arrays) from a value. */
function getPath(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const seg of path.split('.')) {
    if (cur === null || cur === undefined) return undefined;
    if (Array.isArray(cur) && /^\d+$/.test(seg)) cur = cur[Number(seg)];
    else if (typeof cur === 'object') cur = (cur as Record<string, unknown>)[seg];
    else return undefined;
  }
  return cur;
}

function parseRoute(route: string): { method: HttpMethod; path: string } {
  const m = /^(GET|POST)\s+(\/v1\/\S+)$/.exec(route.trim());
  if (!m) throw new Error(`bad route "${route}"`);
  return { method: m[1] as HttpMethod, path: m[2]! };
}

const cases = loadCases();

describe('golden tax cases: well-formed', () => {
  it('loads at least 60 cases with unique ids', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
    const ids = cases.map((c) => c.id);
    const dupes = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(dupes).toEqual([]);
  });

  it('every case has id, http(s) source, route, body (with tax_year) and a non-empty expect', () => {
    const problems: string[] = [];
    for (const c of cases) {
      const where = `${c.file}:${c.id ?? '?'}`;
      if (typeof c.id !== 'string' || c.id.length === 0) problems.push(`${where}: id`);
      if (typeof c.source !== 'string' || !/^https?:\/\/\S+$/.test(c.source)) problems.push(`${where}: source must be an http(s) URL`);
      if (typeof c.route !== 'string') problems.push(`${where}: route`);
      else {
        try {
          parseRoute(c.route);
        } catch {
          problems.push(`${where}: route "${c.route}"`);
        }
      }
      if (c.body === null || typeof c.body !== 'object' || Array.isArray(c.body)) problems.push(`${where}: body`);
      else if (typeof c.body.tax_year !== 'string' || !/^\d{4}-\d{2}$/.test(c.body.tax_year)) problems.push(`${where}: body.tax_year`);
      if (c.expect === null || typeof c.expect !== 'object' || Object.keys(c.expect).length === 0) problems.push(`${where}: expect`);
      else
        for (const [k, v] of Object.entries(c.expect))
          if (typeof v !== 'number' && typeof v !== 'string' && typeof v !== 'boolean') problems.push(`${where}: expect.${k} must be a scalar`);
      if (c.tolerance !== undefined && (typeof c.tolerance !== 'number' || c.tolerance < 0)) problems.push(`${where}: tolerance`);
    }
    expect(problems).toEqual([]);
  });

  it('covers tax years 1990-91 to 2026-27 and both regions', () => {
    const years = new Set(cases.map((c) => String(c.body?.tax_year)));
    expect(years.has('1990-91')).toBe(true);
    expect(years.has('2026-27')).toBe(true);
    const regions = new Set(cases.map((c) => String(c.body?.region ?? 'england_wales_ni')));
    expect(regions.has('england_wales_ni')).toBe(true);
    expect(regions.has('scotland')).toBe(true);
  });
});

describe('golden tax cases: results', () => {
  for (const c of cases) {
    it(c.id, async () => {
      const { method, path } = parseRoute(c.route);
      const res = await callRoute(method, path, { body: c.body, ctx });
      const envelope = res.envelope as { data?: unknown; error?: unknown };
      expect(res.status, `${c.id} (${c.source}): ${JSON.stringify(envelope.error ?? '')}`).toBe(200);
      const tol = c.tolerance ?? DEFAULT_TOLERANCE;
      const mismatches: string[] = [];
      for (const [path, want] of Object.entries(c.expect)) {
        const got = getPath(envelope.data, path);
        if (typeof want === 'number') {
          if (typeof got !== 'number' || !Number.isFinite(got) || Math.abs(got - want) > tol + 1e-9)
            mismatches.push(`${path}: expected ${want} ±${tol}, got ${JSON.stringify(got)}`);
        } else if (got !== want) mismatches.push(`${path}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
      }
      expect(mismatches, `${c.id} (${c.source})`).toEqual([]);
    });
  }
});
