/**
 * Golden cases: worked examples from HMRC's VAT notices and guidance (each case names its source URL),
 * in test/fixtures/tax/golden/vat-return/*.yaml, run through the local backend exactly as the API would answer them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { vatReturn } from './helpers.js';

interface GoldenCase {
  name: string;
  source: string;
  example?: string;
  detail?: 'full' | 'summary' | 'none';
  body: unknown;
  expect: {
    boxes?: Record<string, number>;
    exact?: Record<string, number>;
    paths?: Record<string, unknown>;
    errors?: Array<{ code: string; field?: string }>;
    warnings?: string[];
  };
}

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'tax', 'golden', 'vat-return');
const files = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();
const BOXES = ['box_1', 'box_2', 'box_3', 'box_4', 'box_5', 'box_6', 'box_7', 'box_8', 'box_9'];

function at(obj: unknown, path: string): unknown {
  let v: any = obj;
  for (const k of path.split('.')) v = v == null ? undefined : v[/^\d+$/.test(k) ? Number(k) : k];
  return v;
}

const all: Array<[string, GoldenCase]> = [];
for (const f of files) for (const c of parse(readFileSync(join(dir, f), 'utf8')) as GoldenCase[]) all.push([f, c]);

describe('golden VAT return cases from HMRC guidance', () => {
  it('has at least 25 cases, each with an https source', () => {
    expect(all.length).toBeGreaterThanOrEqual(25);
    for (const [, c] of all) expect(c.source, c.name).toMatch(/^https?:\/\//);
  });

  for (const [file, c] of all) {
    it(`${file}: ${c.name}`, async () => {
      const res = await vatReturn(c.body, c.detail ?? 'full');
      const env: any = res.envelope;
      if (c.expect.errors) {
        expect(res.status, JSON.stringify(env)).toBe(400);
        expect(env.error.code).toBe('VALIDATION_ERROR');
        const got = env.error.details.map((d: any) => ({ code: d.code, field: d.field }));
        for (const e of c.expect.errors) expect(got).toContainEqual(e.field ? e : expect.objectContaining({ code: e.code }));
        expect(got.length).toBe(c.expect.errors.length);
        return;
      }
      expect(res.status, JSON.stringify(env.error ?? null)).toBe(200);
      const data = env.data;
      if (c.expect.boxes) {
        const want = Object.fromEntries(BOXES.map((b) => [b, c.expect.boxes![b] ?? 0]));
        const got = Object.fromEntries(BOXES.map((b) => [b, data.boxes[b].value]));
        expect(got).toEqual(want);
      }
      for (const [b, v] of Object.entries(c.expect.exact ?? {})) expect(data.boxes[b].exact_value, b).toBe(v);
      for (const [p, v] of Object.entries(c.expect.paths ?? {})) expect(at(data, p), p).toEqual(v);
      for (const w of c.expect.warnings ?? []) expect(data.warnings.map((x: any) => x.code)).toContain(w);
    });
  }
});
