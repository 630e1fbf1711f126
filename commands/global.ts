/** Global options: defined once on the program, read by every command with optsWithGlobals(). */
import { Command, InvalidArgumentError, Option } from 'commander';
import { ApiError } from '../src/contract/errors.js';
import { SOURCES, type Source } from '../src/backends/types.js';
import type { Context } from '../src/context.js';
import type { GlobalOptions } from '../src/invoke.js';
import { colorEnabled, defaultFormat, FORMATS, type Format } from '../src/output/render.js';

function positiveInt(name: string) {
  return (v: string): number => {
    if (!/^\d+$/.test(v)) throw new InvalidArgumentError(`${name} takes a whole number.`);
    return Number(v);
  };
}

export function addGlobalOptions(program: Command): void {
  program
    .addOption(new Option('--source <source>', 'where answers come from: auto (local when possible), live (the API) or local (offline)').choices([...SOURCES]))
    // Checked in globalOptions (not with .choices) so `mirror export --format parquet` can use it too.
    .addOption(new Option('--format <format>', `output format: ${FORMATS.join(', ')} (default: table on a terminal, json when piped)`))
    .option('--fields <list>', 'pick columns/fields, comma-separated dotted paths (e.g. date,region.name)')
    .option('--wide', 'table format: every column and nested field (by default a table shows what fits the terminal)')
    .option('--no-color', 'no colour (also NO_COLOR=1)')
    .option('-q, --quiet', 'no spinner or progress on stderr')
    .option('-v, --verbose', 'log each API request (method, path, status, timing, credits, rate limit) to stderr; the key is redacted')
    .option('--max-credits <n>', 'refuse to start, or stop before, a job that would spend more than N credits (GET 1, POST 10)', positiveInt('--max-credits'))
    .option('--max-wait <seconds>', 'longest total wait of one API call for rate limits (Retry-After) and retry back-off before giving up (default 120)', positiveInt('--max-wait'));
}

/** The global options of a command. `ignoreFormat`: the command uses --format for itself (mirror export). */
export function globalOptions(cmd: Command, ctx: Context, how: { ignoreFormat?: boolean } = {}): GlobalOptions {
  const o = cmd.optsWithGlobals() as Record<string, unknown>;
  if (how.ignoreFormat) delete o.format;
  const envSource = ctx.env.PUBLICDATA_SOURCE as Source | undefined;
  const source: Source = (o.source as Source | undefined) ?? (envSource && SOURCES.includes(envSource) ? envSource : 'auto');
  const raw = o.format as string | undefined;
  if (raw !== undefined && !FORMATS.includes(raw as Format)) {
    throw new ApiError(400, 'usage_error', `option '--format <format>' argument '${raw}' is invalid. Allowed choices are ${FORMATS.join(', ')}.`);
  }
  const format: Format = (raw as Format | undefined) ?? defaultFormat(ctx.io);
  const fields = typeof o.fields === 'string' ? checkFieldsSyntax(o.fields) : undefined;
  return {
    source,
    format,
    ...(fields ? { fields } : {}),
    color: colorEnabled(ctx.env, ctx.io.stdoutIsTTY, o.color === false),
    wide: Boolean(o.wide),
    verbose: Boolean(o.verbose),
    quiet: Boolean(o.quiet),
    all: Boolean(o.all),
    ...(typeof o.maxCredits === 'number' ? { maxCredits: o.maxCredits } : {}),
    ...(typeof o.maxWait === 'number' ? { maxWait: o.maxWait } : {}),
  };
}

/** A field path: dot-separated keys of letters, digits, `_` or `-` (`date`, `region.name`, `by_type.flat`). */
const FIELD_PATH = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;

/**
 * `--fields`: its syntax is checked here, before any request is made or credit spent; whether each
 * field exists can be known only from the answer (routes declare no record shape), so that is checked
 * when the answer is printed (applyFields), and not at all when there is no record to look in.
 */
export function checkFieldsSyntax(raw: string): string[] {
  const fields = raw.split(',').map((s) => s.trim());
  if (fields.every((f) => f === '')) throw new ApiError(400, 'usage_error', '--fields: no field given; list dotted paths separated by commas, e.g. date,region.name.');
  const bad = fields.filter((f) => f !== '' && !FIELD_PATH.test(f));
  if (bad.length) {
    throw new ApiError(
      400,
      'usage_error',
      `--fields: ${bad.map((b) => `'${b}'`).join(', ')} is not a field path; use dotted names of letters, digits, _ or -, separated by commas (e.g. date,region.name).`,
    );
  }
  return fields.filter(Boolean);
}
