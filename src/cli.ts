/**
 * The program: global options, one commander subtree per domain, and the mapping of every failure to
 * an error envelope and exit code. `run` never calls process.exit, so tests run it in process.
 */
import { Command, CommanderError } from 'commander';
import { ApiError, EXIT, errorEnvelope } from './contract/errors.js';
import type { Context } from './context.js';
import { errorLine, colorEnabled, FORMATS, type Format } from './output/render.js';
import { writeError } from './output/renderers.js';
import { VERSION } from './version.js';
import { addGlobalOptions } from '../commands/global.js';
import { commandKit } from '../commands/route-command.js';
import { commandGroups, DOMAINS, domainsOfWord, loadDomains } from './registry.js';


/** Registers a command group; `only` (a subcommand name) limits it to that one when it exists. */
type Registrar = (program: Command, ctx: Context, only?: string) => void | Promise<void>;

/** A domain's group (src/domains/<domain>/commands.ts), imported when its word is on the command line. */
const domainRegistrar =
  (load: () => Promise<(program: Command, kit: ReturnType<typeof commandKit>, only?: string) => void>): Registrar =>
  async (program, ctx, only) =>
    (await load())(program, commandKit(ctx), only);

/**
 * One of the CLI's own groups (commands/<name>.ts), imported when its word is on the command line (or for
 * help and completion): each is a pack of its own in the bundle, so a domain command does not load them.
 */
const lazyRegistrar =
  (load: () => Promise<Registrar>): Registrar =>
  async (program, ctx, only) =>
    (await load())(program, ctx, only);
const meta = lazyRegistrar(() => import('../commands/meta.js').then((m) => m.registerMeta));

/** The CLI's own groups (not a domain's): top-level word -> registrar. */
const OWN: Record<string, Registrar> = {
  api: lazyRegistrar(() => import('../commands/api.js').then((m) => m.registerApi)),
  sync: lazyRegistrar(() => import('../commands/sync.js').then((m) => m.registerSync)),
  mirror: lazyRegistrar(() => import('../commands/mirror.js').then((m) => m.registerMirror)),
  sql: lazyRegistrar(() => import('../commands/sql.js').then((m) => m.registerSql)),
  auth: meta,
  completion: meta,
  help: meta,
  serve: lazyRegistrar(() => import('../commands/serve.js').then((m) => m.registerServe)),
};

/**
 * Top-level command names and what registers them: every loaded domain's group (from the registry), then
 * the CLI's own; with every group once, domains first (the order of `publicdata --help`).
 */
function registrars(): { byWord: Record<string, Registrar>; all: Registrar[] } {
  const byWord: Record<string, Registrar> = {
    ...Object.fromEntries(DOMAINS.flatMap((d) => commandGroups(d).map((g) => [g.name, domainRegistrar(g.load)]))),
    ...OWN,
  };
  return { byWord, all: [...new Set(Object.values(byWord))] };
}

/**
 * The domains a command line needs loaded: the one whose group its first word names (`tax take-home`:
 * tax only), else every domain (help, completion, the CLI's own groups, an unknown word: they list or
 * reach every route).
 */
export async function loadDomainsFor(argv: readonly string[]): Promise<void> {
  const [word] = commandWords(argv);
  const own = word !== undefined ? domainsOfWord(word) : [];
  await loadDomains(own.length ? own : undefined);
}

/** Global options that take a value (so their value is not taken for the command word). */
const VALUED_GLOBALS = new Set(['--source', '--format', '--fields', '--max-credits', '--max-wait']);

/** The first two command words of argv (group and subcommand), skipping options and global option values. */
export function commandWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a.startsWith('-')) {
      if (VALUED_GLOBALS.has(a)) i++;
      continue;
    }
    words.push(a);
  }
  return words;
}

/**
 * Build the program. With `argv`, only the command group it names is registered (start-up: building
 * all ~100 commands costs ~10 ms); help, completion and unknown words get the whole tree.
 */
export async function buildProgram(ctx: Context, argv?: readonly string[]): Promise<Command> {
  const program = new Command('publicdata');
  program
    .version(VERSION, '-V, --version', 'print the version')
    .summary('UK public-sector reference data from the shell')
    .description(
      [
        'UK public-sector reference data: the v1 public-data API live (with your key) or offline from',
        'shipped data and a local DuckDB mirror. JSON output is the API envelope, whichever way it ran.',
        '',
        'Examples:',
        '  $ publicdata tax take-home 45000',
        '  $ publicdata calendar bank-holidays next',
        '  $ publicdata property price-paid search --postcode "LS8 3BS"',
        '  $ publicdata api GET /v1/tax/years --source live',
      ].join('\n'),
    )
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => void ctx.io.stdout.write(s),
      writeErr: (s) => void ctx.io.stderr.write(s),
      outputError: () => {},
      getOutHelpWidth: () => ctx.io.columns,
      getErrHelpWidth: () => ctx.io.columns,
    })
    .helpCommand(false)
    // Every command's --help lists the global options it inherits (--format, --fields, --source, ...).
    .configureHelp({ showGlobalOptions: true });
  addGlobalOptions(program);
  const { byWord: REGISTRARS, all: ALL } = registrars();
  if (!argv) {
    for (const r of ALL) await r(program, ctx);
    return program;
  }
  const [word, sub] = commandWords(argv);
  const wantsHelp = argv.includes('-h') || argv.includes('--help');
  if (word === undefined) {
    // `publicdata --version` needs no commands; `publicdata` and `publicdata --help` list them all.
    if (wantsHelp || argv.length === 0) for (const r of ALL) await r(program, ctx);
    return program;
  }
  const registrar = word !== 'help' && word !== 'completion' && Object.hasOwn(REGISTRARS, word) ? REGISTRARS[word] : undefined;
  if (registrar) await registrar(program, ctx, wantsHelp ? undefined : sub);
  else for (const r of ALL) await r(program, ctx);
  return program;
}

function usageError(ctx: Context, message: string, argv: string[]): number {
  const env = errorEnvelope('usage_error', message);
  // The command line did not parse, so read --format, --quiet and --no-color from argv as given.
  const i = argv.indexOf('--format');
  const asked = i >= 0 ? argv[i + 1] : undefined;
  const format: Format = asked && (FORMATS as readonly string[]).includes(asked) ? (asked as Format) : ctx.io.stdoutIsTTY ? 'table' : 'json';
  writeError(ctx.io, env, {
    format,
    color: colorEnabled(ctx.env, ctx.io.stderrIsTTY, argv.includes('--no-color')),
    quiet: argv.includes('-q') || argv.includes('--quiet'),
  });
  return EXIT.USAGE;
}

/** Run the CLI with `argv` (without node and script) and return the exit code. */
export async function run(argv: string[], ctx: Context): Promise<number> {
  // `publicdata -v` with no command prints the version (with a command, -v is --verbose).
  if (argv.length === 1 && argv[0] === '-v') {
    ctx.io.stdout.write(`${VERSION}\n`);
    return EXIT.OK;
  }
  await loadDomainsFor(argv);
  const program = await buildProgram(ctx, argv);
  try {
    await program.parseAsync(argv, { from: 'user' });
    if (argv.length === 0) {
      program.outputHelp();
      return EXIT.OK;
    }
    return (program as Command & { exitCodeValue?: number }).exitCodeValue ?? EXIT.OK;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT.OK;
      if (e.code === 'commander.executeSubCommandAsync') return EXIT.OK;
      // A command group without a subcommand: show its help on stderr, exit 2.
      return usageError(ctx, e.message.replace(/^error: /, ''), argv);
    }
    if (e instanceof ApiError) return usageError(ctx, e.message, argv);
    return reportInternalError(ctx, e, argv);
  } finally {
    await ctx.close();
  }
}

/**
 * A failure nobody handled: one `internal_error` line on stderr naming the command, plus the stack with
 * PUBLICDATA_DEBUG=1. Used by `run` and by the last-resort handler for uncaught exceptions and unhandled
 * rejections (src/main.ts), so a crash in a dependency reads like any other error.
 */
export function reportInternalError(ctx: Pick<Context, 'io' | 'env'>, e: unknown, argv: readonly string[]): number {
  const err = e as Error | undefined;
  const what = err instanceof Error ? err.message || err.name : String(e);
  const cmd = commandWords(argv).join(' ');
  const message = `${cmd ? `${cmd}: ` : ''}${what.split('\n')[0]} (this is a bug in publicdata; set PUBLICDATA_DEBUG=1 for details)`;
  ctx.io.stderr.write(errorLine(errorEnvelope('internal_error', message), false));
  if (ctx.env.PUBLICDATA_DEBUG === '1' && err instanceof Error && err.stack) ctx.io.stderr.write(`${err.stack}\n`);
  return EXIT.ERROR;
}
