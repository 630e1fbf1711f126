/**
 * What a domain's friendly commands (src/domains/<domain>/commands.ts) are written against. A domain
 * declares its commands as route calls with arguments (RouteCommandSpec) and registers them through the
 * CommandKit the CLI hands it (commands/route-command.ts builds it). The kit is injected, not imported, so
 * a domain never imports the command layer (which imports the registry, which imports the domain).
 *
 * Nothing here runs: types only, plus commander's types.
 */
import type { Command, Option } from 'commander';
import type { ApiError } from '../contract/errors.js';
import type { CallResult, RouteCall, SuccessEnvelope } from '../contract/types.js';

export interface ArgSpec {
  /** Parameter name in the route (path, query or body). */
  param: string;
  description?: string;
  optional?: boolean;
  /** Variadic (collects the rest into a string[] param). */
  variadic?: boolean;
}

export interface FlagSpec {
  /** commander flags, e.g. '--year <tax_year>' or '--inclusive'. */
  flags: string;
  param: string;
  description: string;
  /** For switches: the value the param takes when the switch is given (default true). */
  value?: unknown;
  choices?: readonly string[];
}

/**
 * What a command's `prepare` may do besides returning the call: run other calls through `execute` (with
 * the command's --source and --max-credits), write an answer of its own, or print an error.
 */
export interface CommandRun {
  /** Run one call as the command would (validation, backend choice, credits); never throws ApiError. */
  execute(call: RouteCall): Promise<CallResult>;
  /** Write an answer in the command's output format; `id` picks the terminal renderer (a route or command id). */
  output(envelope: SuccessEnvelope, id: string): Promise<void>;
  /** Print an error envelope as the command would; returns the exit code. */
  fail(error: ApiError): Promise<number>;
  /** Standard input (for `--csv -` style options). */
  stdin: NodeJS.ReadableStream;
  /**
   * Before a job of `count` calls like `call`: the error to print when they would pass --max-credits on
   * the backend that would answer them (a live one; local answers cost nothing), else undefined.
   * Nothing is sent.
   */
  budget(call: RouteCall, count: number): Promise<ApiError | undefined>;
}

export interface RouteCommandSpec {
  name: string;
  /**
   * The group's default command: `publicdata <group> ARGS` runs it when ARGS names no other subcommand
   * (`publicdata schools "St Mary"` is `publicdata schools search "St Mary"`), and the other subcommands keep
   * their own options even where the names are the same.
   */
  isDefault?: boolean;
  aliases?: string[];
  route: string;
  /** When this optional positional arg is given, call this other route (e.g. `tax bands 2019-20`). */
  withArg?: { param: string; route: string };
  description?: string;
  /** 2 to 4 examples shown first in --help. */
  examples: string[];
  args?: ArgSpec[];
  flags?: FlagSpec[];
  /** Allow `--body FILE|-` for the JSON body. */
  bodyFile?: boolean;
  /** Allow `--batch` (NDJSON bodies on stdin). */
  batch?: boolean;
  /**
   * The argument is a record id only: a value spelling a sibling route's literal segment (`price-paid
   * show statistics`) is not found, before any call, rather than running that route. (Without it such a
   * value is routed by its path: `calendar bank-holidays next` is the `next` route.)
   */
  idOnly?: boolean;
  /**
   * Last word on the call before it is made (derived fields, custom flags). It may run calls and write
   * its own output through `run`, returning the exit code instead of a call.
   */
  prepare?: (call: RouteCall, opts: Record<string, unknown>, run: CommandRun) => RouteCall | number | Promise<RouteCall | number>;
  /**
   * The route searches around a point (its `lat`/`lng`: src/contract/point.ts): the kit adds `--near` with
   * this help text (what the point is for), parses it once (LAT,LNG, or a postcode through
   * GET /v1/postcodes/{postcode}: commands/near.ts) into the call's lat and lng before `prepare`, and names
   * `--near` in their errors.
   */
  near?: string;
  /** Extra commander options handled by `prepare`. */
  extraOptions?: Option[];
}

export interface CommandKit {
  /** Add a route command under `parent` (a domain's group). */
  route(parent: Command, spec: RouteCommandSpec): Command;
  /** A description followed by its examples, as every --help starts. */
  help(description: string, examples: readonly string[]): string;
  /** Friendly number input: "45,000", "£45000", "45k" -> 45000 (anything else is left for validation). */
  parseAmount(v: string, name?: string): number | string;
}

/**
 * A domain's command group: `name` is its top-level word (`publicdata <name> ...`), `load` imports the
 * registrar (only when that word is on the command line, or for help and completion).
 */
export interface CommandGroup {
  name: string;
  load: () => Promise<RegisterCommands>;
}

/** Registers the group on `program`; `only` (a subcommand name) limits it to that one where that helps start-up. */
export type RegisterCommands = (program: Command, kit: CommandKit, only?: string) => void;
