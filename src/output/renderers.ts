/**
 * The renderer registry: every answer the CLI prints goes through here (route answers, `--sweep`,
 * `mirror status`, `sync`, `sql`, `mirror export`, `api --list`).
 *
 * A renderer is `{name, canRender, render}` (the model is datasette's `register_output_renderer`).
 * Four are built in, one per `--format`: table, json, ndjson, csv. Per-answer renderers are registered
 * by id (a route id such as `tax.take-home.calculate`, or a command id such as `mirror.status`) and
 * take over the table format when their `canRender` says yes (a chart only with `--chart`, never with
 * `--fields` or `--wide`). Domains contribute theirs through their manifest's `renderers` (route id ->
 * lazily imported renderer); the commands' own (mirror status, api --list) live in command-renderers.ts.
 *
 * `--fields` is applied here, once, for every output: records are projected, or the data object when
 * the fields name its keys; an unknown field is a usage error listing the fields there are.
 */
import { ApiError } from '../contract/errors.js';
import { redact } from '../config.js';
import type { RouteSpec } from '../contract/route.js';
import type { CallResult, ErrorEnvelope, SuccessEnvelope } from '../contract/types.js';
import { isErrorEnvelope } from '../contract/types.js';
import type { IO } from '../io.js';
import { cell, csvLine, flatten, getPath, pick, recordsOf, toCsv, type Row } from './records.js';
import { errorLine, footerLine, paint } from './render.js';
import type { Format, Output, RenderContext, Renderer, RendererMap } from './types.js';
import { terminalView, wrapWords } from './view.js';

export type { Output, RenderContext, Renderer, RendererMap } from './types.js';

const recordsFor = (out: Output): Row[] | undefined =>
  recordsOf(out.envelope, out.route ?? (out.records ? ({ records: out.records } as RouteSpec) : undefined));

const json: Renderer = {
  name: 'json',
  canRender: (_o, rc) => rc.format === 'json',
  render: (out, rc) => `${rc.tty ? JSON.stringify(out.envelope, null, 2) : JSON.stringify(out.envelope)}\n`,
};

const ndjson: Renderer = {
  name: 'ndjson',
  canRender: (_o, rc) => rc.format === 'ndjson',
  render: (out) => {
    const recs = recordsFor(out);
    return recs ? recs.map((r) => `${JSON.stringify(r)}\n`).join('') : `${JSON.stringify(out.envelope.data)}\n`;
  },
};

const csv: Renderer = {
  name: 'csv',
  canRender: (_o, rc) => rc.format === 'csv',
  render: (out, rc) => {
    const listed = recordsFor(out);
    const recs = listed ?? [out.envelope.data as Row];
    // No records: the header when --fields names the columns; else nothing, and writeOutput says "no
    // records" on stderr.
    if (recs.length === 0) return rc.fields?.length && !rc.continuation ? `${csvLine(rc.fields)}\r\n` : '';
    // a route's records, or its one answer object: the columns of its published schema (src/invoke.ts)
    const text = toCsv(recs, rc.fields?.length ? undefined : rc.csvColumns);
    return rc.continuation ? text.slice(text.indexOf('\r\n') + 2) : text;
  },
};

const table: Renderer = {
  name: 'table',
  canRender: (_o, rc) => rc.format === 'table',
  render: (out, rc) => terminalView(out.envelope.data, recordsFor(out), out.route?.records ?? out.records, rc, out.route?.measures),
};

const BUILT_IN: readonly Renderer[] = [table, json, ndjson, csv];

const byId = new Map<string, Renderer[]>();

/** Register per-answer renderers (a domain's `renderers` map). Later registrations come first. */
export function registerRenderers(map: RendererMap): void {
  for (const [id, r] of Object.entries(map)) {
    const list = Array.isArray(r) ? (r as readonly Renderer[]) : [r as Renderer];
    byId.set(id, [...list, ...(byId.get(id) ?? [])]);
  }
}

let commandsLoaded: Promise<void> | undefined;
const fromDomains = new Set<string>();

/**
 * Renderers for an id: the output layer's own command renderers, and the domain manifests' `renderers`
 * (looked up through `rc.renderers`, which the caller builds from the registry: the output layer does not
 * import it), each imported on the first table answer that needs it.
 */
async function load(id: string, lookup: RenderContext['renderers']): Promise<void> {
  commandsLoaded ??= import('./command-renderers.js').then((m) => registerRenderers(m.renderers));
  await commandsLoaded;
  if (fromDomains.has(id) || !lookup) return;
  fromDomains.add(id);
  for (const ref of lookup(id)) registerRenderers({ [id]: await ref() });
}

/** The renderer for an answer: a registered one for its id (table format only), else the format's own. */
export async function rendererFor(out: Output, rc: RenderContext): Promise<Renderer> {
  if (rc.format === 'table' && out.id) {
    await load(out.id, rc.renderers);
    for (const r of byId.get(out.id) ?? []) if (r.canRender(out, rc)) return r;
  }
  return BUILT_IN.find((r) => r.canRender(out, rc)) ?? table;
}

/** Leaf paths (dotted) of some records or an object, for "Unknown field" messages. */
function fieldNames(objs: readonly unknown[]): string[] {
  const seen = new Set<string>();
  for (const o of objs.slice(0, 50)) for (const k of Object.keys(flatten(o))) seen.add(k);
  return [...seen];
}

/**
 * `--fields`: project the records to the fields when every field is found in them, else the data object
 * when every field is one of its (dotted) paths. A field found nowhere is a usage error naming the
 * fields there are (as `gh --json` does). An empty record list cannot be checked and passes.
 */
export function applyFields(out: Output, fields: readonly string[] | undefined): Output {
  if (!fields || fields.length === 0) return out;
  const env = out.envelope;
  const recs = recordsFor(out);
  const has = (o: unknown, f: string) => getPath(o, f) !== undefined;
  const recordPath = out.route?.records ?? out.records;
  if (recs) {
    if (recs.length === 0) return out;
    if (fields.every((f) => recs.some((r) => has(r, f)))) {
      const projected = recs.map((r) => pick(r, fields));
      if (Array.isArray(env.data) || !recordPath) return { ...out, envelope: { ...env, data: projected } };
      const data = structuredClone(env.data) as Row;
      const parts = recordPath.split('.');
      let cur = data;
      for (const p of parts.slice(0, -1)) cur = cur[p] as Row;
      cur[parts[parts.length - 1]!] = projected;
      return { ...out, envelope: { ...env, data } };
    }
  }
  const data = env.data;
  const dataIsObject = data !== null && typeof data === 'object' && !Array.isArray(data);
  if (dataIsObject && fields.every((f) => has(data, f))) {
    // The data object's own fields: the answer stops being a record list (a one-row CSV / key-value table).
    return { ...out, route: undefined, records: undefined, envelope: { ...env, data: pick(data, fields) } } as Output;
  }
  const known = [...(recs ? fieldNames(recs) : []), ...(dataIsObject ? fieldNames([data]) : [])];
  const unknown = fields.filter((f) => !(recs ?? []).some((r) => has(r, f)) && !(dataIsObject && has(data, f)));
  if (unknown.length === 0) {
    throw new ApiError(400, 'usage_error', `--fields mixes record fields and top-level fields (${fields.join(', ')}); pick from one: ${known.join(', ')}.`);
  }
  throw new ApiError(
    400,
    'usage_error',
    `Unknown field ${unknown.map((u) => `'${u}'`).join(', ')} in --fields. Available fields: ${[...new Set(known)].join(', ')}.`,
  );
}

/** Print one success answer in the chosen format, through the registry. Throws usage_error for bad --fields. */
export async function writeOutput(io: IO, out: Output, rc: RenderContext): Promise<void> {
  const o = applyFields(out, rc.fields);
  const renderer = await rendererFor(o, rc.fields ? { ...rc, fields: rc.fields } : rc);
  const text = await renderer.render(o, rc);
  io.stdout.write(text);
  if (rc.format === 'csv' && !rc.fields?.length && !rc.continuation && !(rc as { quiet?: boolean }).quiet && recordsFor(o)?.length === 0) {
    io.stderr.write('no records\n');
  }
  if (rc.format !== 'table') return;
  // What the answer says about itself, in words (meta.warnings, warning, note, caveat), on stderr under
  // the table (JSON carries it in meta); a note the answer's own renderer already printed is not repeated.
  const meta = (o.envelope.meta ?? {}) as Record<string, unknown>;
  const flat = (t: string) => t.replace(/\s+/g, ' ');
  const said = (v: unknown): v is string => typeof v === 'string' && v !== '' && !flat(text).includes(flat(v));
  const warnings = [...(Array.isArray(meta.warnings) ? meta.warnings.map(cell) : []), ...(said(meta.warning) ? [meta.warning] : [])];
  // Each wrapped at word boundaries to the width, later lines indented under the first.
  const say = (label: string, painted: string, text: string) => {
    const lines = rc.columns > 0 ? wrapWords(`${label} ${text}`, rc.columns, '  ') : `${label} ${text}`;
    io.stderr.write(`${painted}${lines.slice(label.length)}\n`);
  };
  for (const w of warnings) say('warning', paint.yellow('warning', rc.color), w);
  for (const k of ['note', 'caveat'] as const) if (said(meta[k])) say(k, paint.dim(k, rc.color), meta[k]);
  if (o.source) {
    const recs = recordsFor(o);
    io.stdout.write(`${paint.dim(footerLine(o.envelope, o.route, recs?.length, { source: o.source, ...(o.credits !== undefined ? { credits: o.credits } : {}) }), rc.color)}\n`);
  }
}

export interface ErrorOutputOptions {
  format: Format;
  color: boolean;
  quiet?: boolean;
}

/**
 * Print an error envelope. json/ndjson: the envelope on stdout (scripts switch on `.error.code`) and the
 * one-line message on stderr too (unless --quiet), so a person watching a redirected run sees it. csv:
 * the message on stderr only (a JSON envelope in a .csv file would be read as data); the exit code tells
 * scripts. table: the message on stderr.
 */
export function writeError(io: IO, env: ErrorEnvelope, o: ErrorOutputOptions): void {
  // An API key a server echoed in its message (`Invalid API key Bearer gd_live_…`) is masked here too.
  if (o.format === 'json' || o.format === 'ndjson') {
    io.stdout.write(`${redact(JSON.stringify(env))}\n`);
    if (!o.quiet) io.stderr.write(redact(errorLine(env, false)));
    return;
  }
  io.stderr.write(redact(errorLine(env, o.color)));
}

/** Write to stdout, waiting for a full stream to drain (back-pressure), so a slow reader slows the producer. */
export async function drainWrite(out: IO['stdout'], s: string): Promise<void> {
  const o = out as IO['stdout'] & { once?(event: 'drain', cb: () => void): unknown };
  if (s && !o.write(s) && typeof o.once === 'function') await new Promise<void>((r) => o.once!('drain', () => r()));
}

/** What `fn` writes to stdout, as a string (to render a chunk, then write it with `drainWrite`). */
export async function captureStdout(io: IO, fn: (io: IO) => Promise<void>): Promise<string> {
  let acc = '';
  await fn({ ...io, stdout: { write: (t: string) => ((acc += t), true) } });
  return acc;
}

/**
 * NDJSON or CSV written as it comes, chunk by chunk, in the bytes the whole answer would have had: the one
 * streaming writer of `--all` (src/invoke.ts) and `sql` (commands/sql.ts). A chunk comes either as records,
 * rendered by `render` (the JS renderers, `continuation` telling it to leave out the CSV header), or as
 * text DuckDB already rendered (NDJSON lines, or CSV rows whose header is written here from `columns`).
 * The CSV header is written once, by the first chunk that has one. Every write waits for a full stdout to
 * drain, so a slow reader slows the producer and memory stays flat.
 */
export interface ChunkStream {
  records(records: unknown[]): Promise<void>;
  rendered(text: string, columns: readonly string[]): Promise<void>;
}

export function chunkStream(
  out: IO['stdout'],
  format: 'ndjson' | 'csv',
  render: (records: unknown[], continuation: boolean) => Promise<string>,
): ChunkStream {
  let headerDone = false;
  return {
    async records(records) {
      const text = await render(records, headerDone);
      // An empty chunk prints no header (columns unknown): the first chunk with records prints it.
      if (text) headerDone = true;
      await drainWrite(out, text);
    },
    async rendered(text, columns) {
      if (format === 'csv' && !headerDone) text = `${csvLine(columns)}\r\n${text}`;
      headerDone = true;
      await drainWrite(out, text);
    },
  };
}

/** Print a route call's result (success or error envelope). */
export async function writeResult(io: IO, result: CallResult, route: RouteSpec | undefined, rc: RenderContext & { quiet?: boolean }): Promise<void> {
  const env = result.envelope;
  if (isErrorEnvelope(env)) return writeError(io, env, rc);
  await writeOutput(io, {
    envelope: env,
    ...(route ? { route, id: route.id } : {}),
    source: result.source,
    ...(result.credits?.remaining !== undefined ? { credits: result.credits.remaining } : {}),
  }, rc);
}
