/**
 * `publicdata api METHOD PATH`: the raw form of any call, in either backend, printing exactly the
 * response envelope (or error envelope). Like `gh api`: -F key=value typed fields, -f key=value strings.
 */
import { Command, Option } from 'commander';
import { ApiError } from '../src/contract/errors.js';
import { normalisePath } from '../src/contract/router.js';
import { isUnsafeKey, unsafeKeyReason } from '../src/contract/safe-keys.js';
import { ROUTES } from '../src/registry.js';
import type { HttpMethod, RouteCall } from '../src/contract/types.js';
import type { Context } from '../src/context.js';
import { meta } from '../src/contract/envelope.js';
import { invoke, printError, renderContext, type GlobalOptions } from '../src/invoke.js';
import { writeOutput } from '../src/output/renderers.js';
import { globalOptions } from './global.js';
import { helpWithExamples, readJsonArg, setExit } from './route-command.js';

function collect(v: string, prev: string[] = []): string[] {
  return [...prev, v];
}

/** -F: typed like gh api (true/false/null, numbers, @file for JSON). */
function typedValue(v: string): unknown {
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  if (v.startsWith('[') || v.startsWith('{')) {
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }
  return v;
}

function splitField(f: string, flag: string): [string, string] {
  const i = f.indexOf('=');
  if (i <= 0) throw new ApiError(400, 'usage_error', `${flag} takes key=value, got '${f}'.`);
  const key = f.slice(0, i);
  const bad = key.split('.').find(isUnsafeKey);
  if (bad !== undefined) throw new ApiError(400, 'usage_error', `${flag} ${key}: ${unsafeKeyReason(bad)}.`);
  return [key, f.slice(i + 1)];
}

/** Set a dotted key (scenario_a.gross_income=1) in an object. */
function setDeep(obj: Record<string, unknown>, key: string, value: unknown): void {
  const parts = key.split('.');
  let cur = obj;
  for (const p of parts.slice(0, -1)) {
    if (typeof cur[p] !== 'object' || cur[p] === null) cur[p] = {};
    cur = cur[p] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]!] = value;
}

/** `api --list`: every route with its cost and whether it runs offline, through the renderer registry. */
export async function listRoutes(ctx: Context, g: GlobalOptions): Promise<void> {
  const rows = ROUTES.map((r) => ({ method: r.method, path: r.path, cost: r.cost, offline: Boolean(r.local), datasets: (r.local?.datasets ?? []).map((d) => d.name), id: r.id, summary: r.summary }));
  await writeOutput(ctx.io, { envelope: { data: rows, meta: meta() }, id: 'api.list' }, renderContext(ctx, g));
}

export function registerApi(program: Command, ctx: Context): void {
  program
    .command('api')
    .summary('call any v1 route and print its envelope exactly')
    .description(
      helpWithExamples('Call any route of the v1 API and print exactly its response envelope (or error envelope).', [
        'publicdata api GET /v1/tax/years --source live',
        'publicdata api POST /v1/tax/take-home/calculate -F gross_income=45000 -f region=scotland',
        "publicdata api POST /v1/tax/vat/return/calculate --data @return.json",
        'publicdata api --list',
      ]),
    )
    .argument('[method]', 'GET or POST')
    .argument('[path]', 'route path, e.g. /v1/tax/years (the /v1 prefix may be left out; a ?query is allowed)')
    .option('-d, --data <json>', 'request body: inline JSON, @FILE, or - for stdin')
    .option('-F, --field <key=value>', 'typed field (numbers, true/false/null, JSON): body for POST, query for GET; repeatable', collect)
    .option('-f, --raw-field <key=value>', 'string field; repeatable', collect)
    .option('--batch', 'POST: NDJSON bodies on stdin, one envelope per output line')
    .option('--all', 'follow pagination to the end')
    .addOption(new Option('--list', 'list every route with its credit cost and whether it runs offline'))
    .action(async (method: string | undefined, path: string | undefined, opts: Record<string, unknown>, self: Command) => {
      const g = globalOptions(self, ctx);
      try {
        if (opts.list) {
          await listRoutes(ctx, g);
          return setExit(self, 0);
        }
        if (!method || !path) throw new ApiError(400, 'usage_error', "api needs METHOD and PATH, e.g. 'publicdata api GET /v1/tax/years' (or --list).");
        const m = method.toUpperCase();
        if (m !== 'GET' && m !== 'POST') throw new ApiError(400, 'usage_error', `Method must be GET or POST, not '${method}'.`);
        const [rawPath, qs] = path.split('?', 2) as [string, string | undefined];
        const query: Record<string, string | string[]> = {};
        if (qs) {
          for (const [k, v] of new URLSearchParams(qs)) {
            if (isUnsafeKey(k)) throw new ApiError(400, 'usage_error', `Query parameter ${unsafeKeyReason(k)}.`);
            query[k] = query[k] === undefined ? v : ([] as string[]).concat(query[k]!, v);
          }
        }
        let body: unknown;
        if (opts.data !== undefined) {
          const d = String(opts.data);
          if (d === '-' || d.startsWith('@')) body = await readJsonArg(ctx, d, '--data');
          else {
            try {
              body = JSON.parse(d);
            } catch (e) {
              throw new ApiError(400, 'usage_error', `--data is not valid JSON (${(e as Error).message}).`);
            }
          }
        }
        const fields: Array<[string, unknown]> = [
          ...((opts.field as string[] | undefined) ?? []).map((f) => { const [k, v] = splitField(f, '-F'); return [k, typedValue(v)] as [string, unknown]; }),
          ...((opts.rawField as string[] | undefined) ?? []).map((f) => splitField(f, '-f') as [string, unknown]),
        ];
        for (const [k, v] of fields) {
          if (m === 'GET') query[k] = String(v);
          else {
            if (body === undefined) body = {};
            if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError(400, 'usage_error', '-F/-f need a JSON object body.');
            setDeep(body as Record<string, unknown>, k, v);
          }
        }
        const call: RouteCall = { method: m as HttpMethod, path: normalisePath(rawPath), query, ...(body !== undefined || m === 'POST' ? { body: body ?? {} } : {}) };
        if (ctx.runCall) return setExit(self, await ctx.runCall(call, { batch: Boolean(opts.batch) }));
        if (opts.batch) {
          const { runBatchCommand } = await import('./batch-command.js');
          return setExit(self, await runBatchCommand(ctx, call, g, self.optsWithGlobals().format as string | undefined));
        }
        // `api` always prints the envelope as JSON unless a format was asked for explicitly.
        const explicit = (self.optsWithGlobals() as { format?: string }).format;
        return setExit(self, await invoke(ctx, call, { ...g, format: explicit ? g.format : 'json', all: Boolean(opts.all) }));
      } catch (e) {
        if (e instanceof ApiError) return setExit(self, await printError(ctx, e, g));
        throw e;
      }
    });
}
