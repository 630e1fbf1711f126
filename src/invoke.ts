/**
 * One route call from the CLI: validate (before any data or network is touched), choose the backend once,
 * call it (`callBackend`, following pages with --all), render, and map the answer to an exit code.
 */
import { ApiError, EXIT, exitCodeFor } from './contract/errors.js';
import type { CallResult, RecordSink, RouteCall, SuccessEnvelope } from './contract/types.js';
import { isErrorEnvelope } from './contract/types.js';
import { objectSchemaFor, recordSchemaFor, renderersFor, type Route } from './registry.js';
import type { Context } from './context.js';
import type { BackendOptions, Source } from './backends/types.js';
import type { Backend } from './backends/types.js';
import { callBackend } from './execute.js';
import { prepare, type Prepared } from './runner.js';
import { csvColumns, recordsOf } from './output/records.js';
import type { Format } from './output/render.js';
import { captureStdout, chunkStream, writeError, writeResult, type RenderContext } from './output/renderers.js';

export interface GlobalOptions {
  source: Source;
  format: Format;
  fields?: string[];
  color: boolean;
  /** --wide: every column in the table format. */
  wide?: boolean;
  verbose: boolean;
  quiet: boolean;
  maxCredits?: number;
  maxWait?: number;
  all: boolean;
}

/** The backend options the global flags give. */
export function backendOptions(g: Pick<GlobalOptions, 'source' | 'verbose' | 'maxWait' | 'maxCredits'> & { quiet?: boolean }): BackendOptions {
  return {
    source: g.source,
    verbose: g.verbose,
    ...(g.quiet ? { quiet: true } : {}),
    ...(g.maxWait !== undefined ? { maxWait: g.maxWait } : {}),
    ...(g.maxCredits !== undefined ? { maxCredits: g.maxCredits } : {}),
  };
}

export function resultExit(result: CallResult): number {
  const env = result.envelope;
  return isErrorEnvelope(env) ? exitCodeFor(env.error.code, result.status) : EXIT.OK;
}

/** Print an ApiError raised before any call (validation, missing key) in the chosen format. */
export async function printError(ctx: Context, e: ApiError, g: Pick<GlobalOptions, 'format' | 'color'> & { quiet?: boolean }): Promise<number> {
  const result: CallResult = { status: e.status, envelope: e.toEnvelope(), source: 'local' };
  writeError(ctx.io, e.toEnvelope(), g);
  return resultExit(result);
}

/** The render context of a command's output from its global options. */
export function renderContext(ctx: Context, g: Pick<GlobalOptions, 'format' | 'color' | 'fields' | 'wide' | 'quiet'>, options: Record<string, unknown> = {}): RenderContext & { quiet: boolean } {
  return {
    format: g.format,
    color: g.color,
    columns: ctx.io.columns,
    tty: ctx.io.stdoutIsTTY,
    wide: Boolean(g.wide),
    quiet: Boolean(g.quiet),
    options,
    renderers: renderersFor,
    ...(g.fields ? { fields: g.fields } : {}),
  };
}

/**
 * A spinner on stderr while a call may take a while: live calls and mirror queries, never the instant
 * calculators. Only on a terminal that reports its width (ora's redraw loops on a 0-column terminal),
 * and not with --quiet or in CI.
 */
async function withSpinner<T>(ctx: Context, g: GlobalOptions, text: string, slow: boolean, fn: () => Promise<T>): Promise<T> {
  const columns = (ctx.io.stderr as { columns?: number }).columns ?? 0;
  const show = slow && ctx.io.stderrIsTTY && columns > 0 && !g.quiet && !ctx.env.CI;
  if (!show) return fn();
  const { default: ora } = await import('ora');
  const spinner = ora({ text, stream: ctx.io.stderr as NodeJS.WritableStream, isEnabled: true, discardStdin: false }).start();
  try {
    return await fn();
  } finally {
    spinner.stop();
  }
}

function pageInfo(env: SuccessEnvelope, route: Route): { page: number; perPage: number; total: number; totalPages: number } | undefined {
  if (route.pagination === 'top' && env.pagination) {
    const p = env.pagination;
    return { page: p.page, perPage: p.per_page, total: p.total, totalPages: p.total_pages };
  }
  if (route.pagination === 'inner') {
    const p = (env.data as { pagination?: { page: number; per_page: number; total: number } }).pagination;
    if (p) return { page: p.page, perPage: p.per_page, total: p.total, totalPages: Math.max(1, Math.ceil(p.total / p.per_page)) };
  }
  return undefined;
}

/** An envelope holding `records` where the route keeps its records (for rendering a chunk). */
function withRecords(base: SuccessEnvelope, route: Route, records: unknown[]): SuccessEnvelope {
  if (route.pagination === 'inner') return { ...base, data: { ...(base.data as object), [route.records ?? 'transactions']: records } };
  return { ...base, data: records };
}

/**
 * --all: follow pagination to the end, streaming records as they come (NDJSON/CSV write per page).
 * Stops on a short page, since some totals are estimates (vehicle licensing). JSON output merges the
 * records into one envelope whose pagination says what was fetched.
 *
 * On the local backend the first call carries a record sink: a handler that can stream (price-paid,
 * HPI, designations) runs its query once to the end and writes its records to the sink in DuckDB
 * chunks; NDJSON/CSV are rendered chunk by chunk as the pages would have been (same bytes), with
 * stdout's back-pressure slowing the query. A handler that cannot stream answers page 1 and the pages
 * are followed as on the live backend.
 */
async function callAll(
  ctx: Context,
  backend: Backend,
  call: RouteCall,
  route: Route,
  g: GlobalOptions,
  render: RenderContext & { quiet: boolean },
): Promise<number> {
  let page = Number((call.query.page as string | undefined) ?? 1);
  const merged: unknown[] = [];
  let first: SuccessEnvelope | undefined;
  let last: CallResult | undefined;
  // Records are rendered in a stand-in envelope (a chunk comes before the envelope's meta and pagination).
  const chunkEnv: SuccessEnvelope = { data: {}, meta: {} as SuccessEnvelope['meta'] };
  // NDJSON/CSV: one chunk stream for the whole job (pages or a handler's chunks, the CSV header once).
  const stream = g.format === 'ndjson' || g.format === 'csv'
    ? chunkStream(ctx.io.stdout, g.format as 'ndjson' | 'csv', (recs, continuation) =>
        captureStdout(ctx.io, (io) => writeResult(io, { status: 200, envelope: withRecords(chunkEnv, route, recs), source: backend.kind }, route, { ...render, continuation })))
    : undefined;
  /** One page's (or chunk's) records: NDJSON/CSV to stdout, JSON/table into `merged`. */
  const emit = async (recs: unknown[]) => {
    if (stream) await stream.records(recs);
    else for (const r of recs) merged.push(r);
  };
  let pending: CallResult | undefined;
  if (backend.kind === 'local') {
    let streamed = false;
    let rows = 0;
    const sink: RecordSink = {
      start: () => void (streamed = true),
      write: async (records) => {
        rows += records.length;
        await emit(records);
      },
    };
    // NDJSON/CSV without --fields: a handler may hand over its records rendered by DuckDB (the same bytes).
    if (stream && !g.fields?.length) {
      sink.rendered = {
        format: g.format as 'ndjson' | 'csv',
        write: async (text, n, columns) => {
          // DuckDB renders a handler's plain columns; they must be the schema's, as a JS page would print
          if (render.csvColumns && columns.join('\n') !== render.csvColumns.join('\n')) {
            throw new Error(`${route.id}: the DuckDB-rendered CSV columns (${columns.join(',')}) are not the record schema's (${render.csvColumns.join(',')})`);
          }
          rows += n;
          await stream.rendered(text, columns);
        },
      };
    }
    const result = await callBackend(backend, { ...call, query: { ...call.query, page: String(page) }, sink } as RouteCall);
    if (streamed && !isErrorEnvelope(result.envelope)) {
      first = result.envelope;
      last = result;
      // An empty result still prints what page 1 would have (the CSV renderer's empty output).
      if (rows === 0 && stream) await stream.records([]);
      if (g.verbose) ctx.io.stderr.write(`one query: ${rows} records\n`);
    } else pending = result;
  }
  const streamedAll = first !== undefined;
  while (!streamedAll) {
    const result = pending ?? (await callBackend(backend, { ...call, query: { ...call.query, page: String(page) } }));
    pending = undefined;
    last = result;
    if (isErrorEnvelope(result.envelope)) {
      await writeResult(ctx.io, result, route, render);
      return resultExit(result);
    }
    const env = result.envelope;
    first ??= env;
    const recs = recordsOf(env, route) ?? [];
    const info = pageInfo(env, route);
    await emit(recs);
    if (g.verbose) ctx.io.stderr.write(`page ${page}: ${recs.length} records\n`);
    if (!info || recs.length < info.perPage || page >= info.totalPages || recs.length === 0) break;
    // --max-credits: refuse the rest of the job up front when its pages would not fit the budget.
    const remainingPages = info.totalPages - page;
    if (backend.canSpend && !backend.canSpend(remainingPages * route.cost)) {
      const e = new ApiError(
        402,
        'credit_budget_exceeded',
        `--all needs ${remainingPages} more page(s) (${remainingPages * route.cost} credits) after page ${page} of ${info.totalPages}; that would pass --max-credits.`,
      );
      return printError(ctx, e, g);
    }
    page++;
  }
  if (g.format === 'json' || g.format === 'table') {
    const base = first as SuccessEnvelope;
    let env: SuccessEnvelope;
    if (route.pagination === 'inner') {
      env = { ...base, data: { ...(base.data as object), [route.records ?? 'transactions']: merged, pagination: { page: 1, per_page: merged.length, total: merged.length } } };
    } else {
      env = { ...base, data: merged, pagination: { total: merged.length, page: 1, per_page: merged.length, total_pages: 1 } };
    }
    await writeResult(ctx.io, { ...(last as CallResult), envelope: env }, route, render);
  }
  return EXIT.OK;
}

/**
 * csv and ndjson print the records of one page, with nothing in the data to say there are more: say it on
 * stderr (never on stdout, which a script reads), unless --quiet.
 */
function morePagesHint(ctx: Context, g: GlobalOptions, route: Route, result: CallResult): void {
  if (g.quiet || (g.format !== 'csv' && g.format !== 'ndjson') || !route.pagination || isErrorEnvelope(result.envelope)) return;
  const info = pageInfo(result.envelope, route);
  if (!info || info.page >= info.totalPages) return;
  ctx.io.stderr.write(`publicdata: page ${info.page} of ${info.totalPages} (${info.total} record${info.total === 1 ? '' : 's'}); add --all for every record, or --page N\n`);
}

/** Run one call end to end and return the exit code. */
/**
 * An error answer (a local handler's or the live API's) names the flag typed, as a validation error does:
 * `Invalid option --year: ...`, not `Invalid parameter 'year'` (issue 37); the code and details unchanged.
 */
function relabelResult(r: CallResult, relabel: (e: ApiError) => ApiError): CallResult {
  if (!isErrorEnvelope(r.envelope)) return r;
  const err = r.envelope.error;
  const message = relabel(new ApiError(r.status, err.code, err.message)).message;
  return message === err.message ? r : { ...r, envelope: { ...r.envelope, error: { ...err, message } } };
}

export async function invoke(
  ctx: Context,
  call: RouteCall,
  g: GlobalOptions,
  options: Record<string, unknown> = {},
  /** Friendly commands: name their flags, not the API fields, in validation errors. */
  relabel: (e: ApiError) => ApiError = (e) => e,
): Promise<number> {
  const render = renderContext(ctx, g, options);
  let p: Prepared;
  let backend: Backend;
  try {
    p = await prepare(call);
    if (g.all && !p.route.pagination) throw new ApiError(400, 'usage_error', `--all: ${p.route.method} ${p.route.path} is not paginated.`);
    backend = await ctx.backend(p.route, backendOptions(g));
  } catch (e) {
    if (e instanceof ApiError) return printError(ctx, relabel(e), g);
    throw e;
  }
  const route = p.route;
  try {
    // CSV of a record list: the columns of the route's published record schema, whatever a page holds.
    if (g.format === 'csv' && !g.fields?.length) {
      const schema = (await recordSchemaFor(route)) ?? (await objectSchemaFor(route));
      if (schema) render.csvColumns = csvColumns(schema);
    }
    const slow = backend.kind === 'live' || (route.local?.datasets?.length ?? 0) > 0;
    const label = `${call.method} ${call.path}`;
    if (g.all) return await withSpinner(ctx, g, label, slow, () => callAll(ctx, backend, call, route, g, render));
    const result = relabelResult(await withSpinner(ctx, g, label, slow, () => callBackend(backend, call, p)), relabel);
    await writeResult(ctx.io, result, route, render);
    morePagesHint(ctx, g, route, result);
    return resultExit(result);
  } catch (e) {
    // A bad --fields is known only once the answer is there; it is still a usage error.
    if (e instanceof ApiError) return printError(ctx, e, g);
    throw e;
  }
}
