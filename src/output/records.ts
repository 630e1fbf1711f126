/**
 * Turning an envelope into records for table, NDJSON and CSV output, and picking `--fields`.
 */
import type { RouteSpec } from '../contract/route.js';
import { schemaBranches, type JsonSchema } from '../contract/schema.js';
import type { Envelope, SuccessEnvelope } from '../contract/types.js';
import { isErrorEnvelope } from '../contract/types.js';

export type Row = Record<string, unknown>;

export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const k of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

/** The record list of a success envelope: `data` when it is an array, else `data.<route.records>`. */
export function recordsOf(env: SuccessEnvelope, route?: RouteSpec): Row[] | undefined {
  if (Array.isArray(env.data)) return env.data as Row[];
  if (route?.records) {
    const v = getPath(env.data, route.records);
    if (Array.isArray(v)) return v as Row[];
  }
  return undefined;
}

/** Flatten nested objects into dotted keys; arrays of scalars join with ', ', arrays of objects as JSON. */
export function flatten(obj: unknown, prefix = '', out: Row = {}): Row {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
    out[prefix || 'value'] = obj;
    return out;
  }
  for (const [k, v] of Object.entries(obj as Row)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) flatten(v, key, out);
    else out[key] = v;
  }
  return out;
}

export function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.every((x) => x === null || typeof x !== 'object') ? v.join(', ') : JSON.stringify(v);
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** `--fields a,b.c`: project a record to those dotted paths (keeping nesting). */
export function pick(rec: unknown, fields: readonly string[]): Row {
  const out: Row = {};
  for (const f of fields) {
    const v = getPath(rec, f);
    if (v === undefined) continue;
    const parts = f.split('.');
    let cur = out;
    for (let i = 0; i < parts.length - 1; i++) {
      const k = parts[i]!;
      if (typeof cur[k] !== 'object' || cur[k] === null) cur[k] = {};
      cur = cur[k] as Row;
    }
    cur[parts[parts.length - 1]!] = v;
  }
  return out;
}

function csvCell(v: unknown): string {
  const s = cell(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV line (no line break) of these values. */
export function csvLine(values: readonly unknown[]): string {
  return values.map(csvCell).join(',');
}

/**
 * RFC 4180 CSV of records. With `columns` (a route's record schema, `csvColumns`): those columns, each
 * cell the value at that dotted path (empty under a null object; an object or array there as `cell`
 * writes it), so every page of an answer has the same header. Without: the records flattened, columns
 * in first-seen order (command outputs, `--fields`, which has already picked them).
 */
export function toCsv(rows: readonly Row[], columns?: readonly string[]): string {
  if (columns) {
    const paths = columns.map((c) => c.split('.'));
    const at = (r: unknown, path: readonly string[]) => {
      let cur = r;
      for (const k of path) cur = cur !== null && typeof cur === 'object' ? (cur as Row)[k] : undefined;
      return cur;
    };
    const lines = [columns.map(csvCell).join(',')];
    for (const r of rows) lines.push(paths.map((p) => csvCell(at(r, p))).join(','));
    return `${lines.join('\r\n')}\r\n`;
  }
  const flat = rows.map((r) => flatten(r));
  const cols: string[] = [];
  const seen = new Set<string>();
  for (const r of flat) for (const k of Object.keys(r)) if (!seen.has(k)) (seen.add(k), cols.push(k));
  const lines = [cols.map(csvCell).join(',')];
  for (const r of flat) lines.push(cols.map((c) => csvCell(r[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * The CSV columns of a record schema (a route's published response schema, src/domains/<d>/schemas.ts),
 * in its property order: an object's declared fields become dotted columns (a null object: its columns
 * empty), alternatives of objects contribute the union of their fields; an object keyed by data
 * (`record(...)`, e.g. earnings' `markers`) and an array are one column each (JSON / joined, as `cell`).
 * So every page of a streamed answer has the same columns, whatever nulls or keys its records carry.
 */
export function csvColumns(schema: JsonSchema, prefix = '', out: string[] = []): string[] {
  const objects = schemaBranches(schema).filter((b) => b.type === 'object' && b.properties);
  if (objects.length === 0) {
    out.push(prefix || 'value');
    return out;
  }
  const fields = new Map<string, JsonSchema[]>();
  for (const o of objects) for (const [k, v] of Object.entries(o.properties as Record<string, JsonSchema>)) fields.set(k, [...(fields.get(k) ?? []), v]);
  for (const [k, vs] of fields) {
    const key = prefix ? `${prefix}.${k}` : k;
    const sub = vs.length === 1 ? vs[0]! : { anyOf: vs };
    csvColumns(sub, key, out);
  }
  return out;
}
