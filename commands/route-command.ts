/**
 * A friendly command is a route call with arguments: positional args and flags map to path, query or
 * body parameters of a route; every parameter of the route not mapped explicitly gets an automatic
 * `--kebab-name` flag, so the whole API is reachable. Global output options come from the program.
 */
import { Command, Option } from 'commander';
import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { ApiError } from '../src/contract/errors.js';
import { parseAmount } from '../src/amount.js';
import type { ParamSpec, RouteSpec } from '../src/contract/route.js';
import { domainsOfWord, loadDomains, matchLoading, matchRoute, ROUTES, routeById } from '../src/registry.js';
import { enumValue, validateParams } from '../src/contract/validate.js';
import type { RouteCall } from '../src/contract/types.js';
import type { Context } from '../src/context.js';
import { backendOptions, invoke, printError, renderContext, type GlobalOptions } from '../src/invoke.js';
import { execute } from '../src/execute.js';
import { writeOutput } from '../src/output/renderers.js';
import { globalOptions } from './global.js';
import { POSTCODE_ROUTE_PATH, latLngOf, resolveNear } from './near.js';
import type { CommandKit, CommandRun, FlagSpec, RouteCommandSpec } from '../src/domains/command-kit.js';

export type { ArgSpec, FlagSpec, RouteCommandSpec } from '../src/domains/command-kit.js';
export { parseAmount };

export const kebab = (s: string): string => s.replace(/_/g, '-');

export function helpWithExamples(description: string, examples: string[]): string {
  return `${description}\n\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}`;
}

/** Convert a CLI string to a body value of the param's type (validation reports what is still wrong). */
export function bodyValue(spec: ParamSpec | undefined, v: unknown): unknown {
  if (typeof v !== 'string' || !spec) return v;
  switch (spec.type) {
    case 'integer':
    case 'number':
      return parseAmount(v, spec.name);
    case 'boolean':
      return v === 'true' ? true : v === 'false' ? false : v;
    case 'string[]':
      return v.split(',').map((x) => x.trim()).filter(Boolean);
    default:
      return v;
  }
}

function allParams(route: RouteSpec): Array<{ spec: ParamSpec; where: 'path' | 'query' | 'body' }> {
  return [
    ...(route.pathParams ?? []).map((spec) => ({ spec, where: 'path' as const })),
    ...(route.query ?? []).map((spec) => ({ spec, where: 'query' as const })),
    ...(route.body ?? []).map((spec) => ({ spec, where: 'body' as const })),
  ];
}

/** Fill `{param}` segments. */
export function buildPath(route: RouteSpec, values: Record<string, unknown>): string {
  return route.path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(String(values[k] ?? '')));
}

/** Read a JSON document from a file or '-' (stdin). Throws usage_error with a clear message. */
export async function readJsonArg(ctx: Context, arg: string, what: string): Promise<unknown> {
  let text: string;
  try {
    if (arg === '-') {
      const chunks: Buffer[] = [];
      for await (const c of ctx.io.stdin as AsyncIterable<Buffer | string>) chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
      text = Buffer.concat(chunks).toString('utf8');
    } else {
      // Read as bytes (one read of the file's size), then an ASCII file (the usual JSON) as a one-byte copy
      // without UTF-8 decoding: Node 20's readFileSync(f, 'utf8') took twice as long for a 2.2 MB body.
      const bytes = readFileSync(arg.startsWith('@') ? arg.slice(1) : arg);
      text = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
    }
  } catch (e) {
    throw new ApiError(400, 'usage_error', `${what}: cannot read '${arg}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ApiError(400, 'usage_error', `${what}: '${arg}' is not valid JSON (${(e as Error).message}).`);
  }
}

/**
 * A validation error in the words of the command line: `field 'asset_type'` becomes `--asset`,
 * `field 'gain'` the `<gain>` argument. `labels`: parameter name -> what the user typed it as.
 */
export function relabelError(e: ApiError, labels: ReadonlyMap<string, string>): ApiError {
  const flag = (q: string, name: string) => labels.get(name)?.replace(/^(?:option|argument) /, '') ?? q;
  const message = e.message
    .replace(/\b(?:field|parameter) '([^']+)'/g, (m, name: string) => labels.get(name) ?? m)
    // names listed after the validator's own words (`needs 'lat' as well`, `one of 'lat', 'lsoa', 'force'`,
    // `Parameters 'a' and 'b'`, `(got 'a' and 'b')`): the option or argument itself (`--near`, `<gain>`).
    // Only there: elsewhere a quoted word is a value the user typed (`--sort postcode`), left as typed.
    .replace(/\b(needs|[Oo]ne of|Parameters|Fields|\(got) ((?:'[a-z][a-z0-9_]*'(?:, | and | or )?)+)/g, (_m, lead: string, list: string) => `${lead} ${list.replace(/'([a-z][a-z0-9_]*)'/g, flag)}`)
    // lat and lng are one option when typed as --near: named once (`needs --near and --near`)
    .replace(/(--near)(?:(?:,| and| or) --near)+/g, '$1');
  return message === e.message ? e : new ApiError(e.status, e.code, message, e.details);
}

/** Parameter name -> the value the command line gave it: positional arguments, friendly flags, automatic flags. */
function valuesGiven(
  spec: RouteCommandSpec,
  argv: unknown[],
  opts: Record<string, unknown>,
  flagKeys: ReadonlyArray<{ key: string; f: FlagSpec }>,
  autoKeys: ReadonlyArray<{ key: string; name: string }>,
): Map<string, unknown> {
  const values = new Map<string, unknown>();
  (spec.args ?? []).forEach((a, i) => {
    const v = argv[i];
    // an optional variadic argument not given is an empty list: not given
    if (v !== undefined && !(Array.isArray(v) && v.length === 0)) values.set(a.param, v);
  });
  for (const { key, f } of flagKeys) {
    const v = opts[key];
    if (v === undefined) continue;
    values.set(f.param, v === true && f.value !== undefined ? f.value : v);
  }
  for (const { key, name } of autoKeys) if (opts[key] !== undefined) values.set(name, opts[key]);
  return values;
}

/**
 * The call with `--near`'s point as its lat and lng (commands/near.ts: LAT,LNG, or a postcode looked up
 * through `lookup`). A postcode's lookup error is returned as it is: that route's own words,
 * not relabelled as this command's options.
 */
async function withNear(call: RouteCall, near: string, lookup: CommandRun['execute']): Promise<RouteCall | ApiError> {
  // coordinates need no lookup: the domains are loaded to find the postcode route only for anything else
  const postcodes = latLngOf(near) === undefined && (await hasPostcodeRoute());
  const point = await resolveNear(near, { postcodes, execute: lookup }).catch((e: unknown) => e);
  if (point instanceof ApiError) return point;
  if (point instanceof Error) throw point;
  return { ...call, query: { ...call.query, ...(point as { lat: string; lng: string }) } };
}

/** Automatic `--kebab-name` flags for every query and body parameter no argument or friendly flag maps. */
function addAutoFlags(cmd: Command, params: ReadonlyMap<string, { spec: ParamSpec; where: 'path' | 'query' | 'body' }>, mapped: ReadonlySet<string>): Array<{ key: string; name: string }> {
  const autoKeys: Array<{ key: string; name: string }> = [];
  for (const [name, p] of params) {
    if (mapped.has(name) || p.where === 'path') continue;
    const flag = p.spec.type === 'boolean' ? `--${kebab(name)}` : `--${kebab(name)} <value>`;
    // The default once: not appended when the description already says it (`test year (default 2025)`,
    // `open (default), closed …`), which the OpenAPI document shows as written.
    const saysDefault = /\bdefault\b/i.test(p.spec.description);
    const desc = p.spec.description + (p.spec.default !== undefined && !saysDefault ? ` (default ${String(p.spec.default)})` : '');
    const o = new Option(flag, desc);
    // Enums are validated with the route (case-insensitive, the spec's error code); completion offers them.
    if (p.spec.enum) COMPLETION_VALUES.set(o, p.spec.enum);
    cmd.addOption(o);
    autoKeys.push({ key: o.attributeName(), name });
  }
  return autoKeys;
}

export function addRouteCommand(parent: Command, spec: RouteCommandSpec, ctx: Context): Command {
  const route = routeById(spec.route);
  const alt = spec.withArg ? routeById(spec.withArg.route) : undefined;
  const cmd = spec.isDefault ? parent.command(spec.name, { isDefault: true }) : parent.command(spec.name);
  if (spec.aliases) cmd.aliases(spec.aliases);
  // Every --help starts with 2 to 4 examples; a one-example command also shows its JSON form.
  const examples = spec.examples.length >= 2 ? spec.examples : [...spec.examples, `${spec.examples[0]} --format json`];
  cmd.description(helpWithExamples(spec.description ?? route.summary, examples));
  cmd.summary(spec.description ?? route.summary);

  const params = new Map<string, { spec: ParamSpec; where: 'path' | 'query' | 'body' }>();
  for (const r of [route, alt]) if (r) for (const p of allParams(r)) if (!params.has(p.spec.name)) params.set(p.spec.name, p);

  const mapped = new Set<string>();
  for (const a of spec.args ?? []) {
    const p = params.get(a.param);
    const label = a.variadic ? `${a.param}...` : a.param;
    cmd.argument(a.optional ? `[${label}]` : `<${label}>`, a.description ?? p?.spec.description ?? a.param);
    mapped.add(a.param);
  }
  const flagKeys: Array<{ key: string; f: FlagSpec }> = [];
  for (const f of spec.flags ?? []) {
    const o = new Option(f.flags, f.description);
    // Not commander's .choices (case-sensitive, a usage_error): checked in the action like the route's enums.
    if (f.choices) COMPLETION_VALUES.set(o, f.choices);
    cmd.addOption(o);
    flagKeys.push({ key: o.attributeName(), f });
    mapped.add(f.param);
  }
  const autoKeys = addAutoFlags(cmd, params, mapped);
  const labels = new Map<string, string>();
  for (const a of spec.args ?? []) labels.set(a.param, `argument <${a.param}>`);
  for (const f of spec.flags ?? []) labels.set(f.param, `option ${f.flags.split(/[ ,]+/).find((x) => x.startsWith('--')) ?? f.flags}`);
  for (const { name } of autoKeys) labels.set(name, `option --${kebab(name)}`);
  if (route.pagination) cmd.option('--all', 'follow pagination to the end, streaming records');
  if (spec.bodyFile) cmd.option('--body <file>', 'request body as JSON from a file, or - for stdin');
  if (spec.batch) cmd.option('--batch', 'NDJSON request bodies on stdin, one envelope per output line');
  if (spec.near) cmd.addOption(new Option('--near <lat,lng|postcode>', `${spec.near}: LAT,LNG (WGS84, e.g. 53.80,-1.55), or a postcode once \`publicdata sync postcodes\` has run`));
  for (const o of spec.extraOptions ?? []) cmd.addOption(o);

  cmd.action(async (...argv: unknown[]) => {
    const self = argv[argv.length - 1] as Command;
    const opts = self.opts() as Record<string, unknown>;
    // `--near` (every command with `near`: commands/near.ts) gives the route's lat and lng: their errors name
    // --near, unless the point was typed as --lat and --lng (then those are named)
    const typedLatLng = opts.near === undefined && autoKeys.some(({ key, name }) => (name === 'lat' || name === 'lng') && opts[key] !== undefined);
    const labelsNow = !spec.near || typedLatLng ? labels : new Map([...labels, ['lat', 'option --near'], ['lng', 'option --near']]);
    const g = globalOptions(self, ctx);
    const values = valuesGiven(spec, argv, opts, flagKeys, autoKeys);

    const useAlt = alt && spec.withArg && values.has(spec.withArg.param);
    const target = useAlt ? alt : route;
    const pathValues: Record<string, unknown> = {};
    const query: Record<string, string> = {};
    let body: Record<string, unknown> | undefined = target.method === 'POST' ? {} : undefined;
    try {
      if (opts.body !== undefined) {
        const doc = await readJsonArg(ctx, String(opts.body), '--body');
        if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new ApiError(400, 'usage_error', '--body: the JSON must be an object.');
        body = { ...(doc as Record<string, unknown>) };
      }
      canonicalChoices(values, flagKeys.map(({ f }) => f), params, target);
      for (const [name, v] of values) {
        const p = params.get(name);
        const where = p && allParams(target).some((x) => x.spec.name === name) ? p.where : 'body';
        // A value typed as spaces only: the API reads a blank value as none (a search would list every
        // record) and an empty path segment names another route (or none): refused as its own error.
        if (typeof v === 'string' && v.trim() === '') throw new ApiError(400, 'invalid_parameter', `Invalid parameter '${name}': empty; give a value.`);
        if (where === 'path') {
          // a variadic path argument is its words with spaces (`postcode LS8 3BS`)
          pathValues[name] = Array.isArray(v) ? v.join(' ') : v;
        }
        else if (where === 'query') query[name] = Array.isArray(v) ? v.join(',') : String(v);
        else if (body) body[name] = Array.isArray(v) ? v : bodyValue(p?.spec, v);
      }
      if (g.all && target.query?.some((q) => q.name === 'per_page')) query.per_page ??= '100';
      let call: RouteCall = { method: target.method, path: buildPath(target, pathValues), query, ...(body ? { body } : {}) };
      // idOnly: a path value spelling a sibling route's literal segment (`price-paid show statistics`)
      // would call that route, here and on the live API alike; such a segment is not an id (the spec:
      // "the literal path statistics is not an id"), so it is not found, before any request.
      const lands = spec.idOnly && Object.keys(pathValues).length ? matchRoute(call.method, call.path) : undefined;
      if (lands && lands.route.id !== target.id) {
        // what the record's own route says of the value first (a malformed company number is a 400)
        validateParams(target, Object.fromEntries(Object.entries(pathValues).map(([k, v]) => [k, String(v)])), {});
        const [name, v] = Object.entries(pathValues)[0]!;
        throw new ApiError(404, 'not_found', `No ${name} '${String(v)}': ${call.method} ${call.path} is another route (${lands.route.id}), not a record.`);
      }
      const run = commandRun(ctx, g, opts);
      if (spec.near && opts.near !== undefined) {
        // the postcode is placed from the local postcodes mirror whatever --source says (the published API
        // has no postcode route: a publicdata extension, which 'auto' answers locally); the search itself
        // then goes where --source sends it
        const near = await withNear(call, String(opts.near), (c) => execute(c, ctx, { ...backendOptions(g), source: 'auto' }));
        if (near instanceof ApiError) return setExit(self, await printError(ctx, near, g));
        call = near;
      }
      if (spec.prepare) {
        const r = await spec.prepare(call, opts, run);
        if (typeof r === 'number') return setExit(self, r);
        call = r;
      }
      if (ctx.runCall) return setExit(self, await ctx.runCall(call, { batch: Boolean(opts.batch) }));
      if (opts.batch) {
        const { runBatchCommand } = await import('./batch-command.js');
        return setExit(self, await runBatchCommand(ctx, call, g, self.optsWithGlobals().format as string | undefined));
      }
      // Terminal renderers are registered by route id (src/output/renderers.ts); they see the options (--chart).
      return setExit(self, await invoke(ctx, call, g, opts, (e) => relabelError(e, labelsNow)));
    } catch (e) {
      if (e instanceof ApiError) return setExit(self, await printError(ctx, relabelError(e, labelsNow), g));
      throw e;
    }
  });
  return cmd;
}

/** The values a shell completes after an option (its own enum or choices only); read by `completion`. */
export const COMPLETION_VALUES = new WeakMap<Option, readonly string[]>();

/**
 * Choice and enum values in their canonical spelling, matched without case (`--region Scotland`). A value
 * outside a flag's own choices is the route's error for that parameter (its `error` code, else
 * invalid_parameter for query/path and bad_request for body), as validation would report it.
 */
function canonicalChoices(
  values: Map<string, unknown>,
  flags: readonly FlagSpec[],
  params: ReadonlyMap<string, { spec: ParamSpec; where: 'path' | 'query' | 'body' }>,
  target: RouteSpec,
): void {
  for (const [name, v] of values) {
    if (typeof v !== 'string') continue;
    const p = params.get(name);
    // a shared vocabulary (a region by name, GSS code or slug): the route's validation resolves it and refuses with what it accepts
    if (p?.spec.resolve) continue;
    const choices = flags.find((f) => f.param === name && f.choices)?.choices;
    if (choices) {
      const hit = choices.find((c) => c === v) ?? choices.find((c) => c.toLowerCase() === v.toLowerCase());
      if (hit === undefined) {
        const where = p && allParams(target).some((x) => x.spec.name === name) ? p.where : 'body';
        const code = p?.spec.error ?? (where === 'body' ? 'bad_request' : 'invalid_parameter');
        throw new ApiError(p?.spec.errorStatus ?? 400, code, `Invalid parameter '${name}': '${v}'. Allowed: ${choices.join(', ')}.`);
      }
      values.set(name, hit);
    } else if (p?.spec.enum && p.spec.type === 'string') {
      const hit = enumValue(p.spec, v);
      if (hit !== undefined) values.set(name, hit);
    }
  }
}

/**
 * Whether the registry answers postcode lookups, for `--near POSTCODE`: the domain of the `postcode` command
 * group is loaded to know (a command loads its own domain only, src/cli.ts); none when no domain has it.
 */
async function hasPostcodeRoute(): Promise<boolean> {
  await loadDomains(domainsOfWord('postcode'));
  return ROUTES.some((r) => r.method === 'GET' && r.path === POSTCODE_ROUTE_PATH);
}

/** Commands report their exit code through the root command (read by cli.ts). */
export function setExit(cmd: Command, code: number): void {
  let root = cmd;
  while (root.parent) root = root.parent;
  (root as Command & { exitCodeValue?: number }).exitCodeValue = code;
}

/** What a command's `prepare` may use (src/domains/command-kit.ts): calls, output and errors as the command's own. */
function commandRun(ctx: Context, g: GlobalOptions, opts: Record<string, unknown>): CommandRun {
  return {
    // A getter: process.stdin builds a stream on access (fs streams, fs/promises, readline for a file or
    // /dev/null; net for a pipe), which only a command reading stdin needs (docs/performance.md).
    get stdin() {
      return ctx.io.stdin;
    },
    execute: (call) => execute(call, ctx, backendOptions(g)),
    output: (envelope, id) => writeOutput(ctx.io, { envelope, id }, renderContext(ctx, g, opts)),
    fail: (e) => printError(ctx, e, g),
    async budget(call, count) {
      const { route } = await matchLoading(call.method, call.path);
      const backend = await ctx.backend(route, backendOptions(g));
      const cost = count * route.cost;
      if (!backend.canSpend || backend.canSpend(cost)) return undefined;
      return new ApiError(402, 'credit_budget_exceeded', `Not started: ${count} calls of ${call.method} ${route.path} cost ${cost} credits, more than --max-credits allows.`);
    },
  };
}

/** The kit a domain's commands are registered with (src/domains/command-kit.ts). */
export function commandKit(ctx: Context): CommandKit {
  return {
    route: (parent, spec) => addRouteCommand(parent, spec, ctx),
    help: (description, examples) => helpWithExamples(description, [...examples]),
    parseAmount,
  };
}
