/**
 * A DuckDB error raised while a load reads a bulk file, said in one line (issue 37: "some failures print an
 * 11 KB DuckDB dump"). DuckDB's CSV reader answers a malformed file with 20 or more lines: the sniffer's search
 * space, "Possible fixes" meant for someone writing the SQL, the reader's options, the statement with a caret.
 * None of it tells the user which of their files is wrong or what to do. `duckdbLoadError` keeps what does:
 * what went wrong in plain words, the file (the one the user gave or the sync downloaded, not a scratch copy
 * when it can be traced), the line when DuckDB names one, and the fix.
 *
 * Used once, by the framework's load stage (sync/framework.ts `loadFiles`), so every dataset that reads its
 * files through DuckDB gets it. An error that is not DuckDB's (a module's own message) is left as it is.
 *
 * The file is blamed ("not a well-formed CSV … download it again") only when DuckDB's message shows it came
 * from its CSV reader: the reader names the line ("CSV Error on Line: N"), the column it was converting
 * ('Error when converting column "a"'), its sniffer ("Error when sniffing file") or lists its options
 * ("  file = /path"). The same "Could not convert string" raised by a cast in a module's own SQL (over a
 * VARCHAR column, a staged table, values read from a workbook) names no CSV line, only the cast's source
 * column and the SQL ("LINE 1: SELECT …"): that is said as the load failing, not as a bad download.
 */
import { basename, relative, isAbsolute } from 'node:path';

/** DuckDB's exception types (ExceptionTypeToString), as they open its error messages: `<type> Error: …`. */
const DUCKDB_KINDS = [
  'Invalid', 'Out of Range', 'Conversion', 'Unknown Type', 'Decimal', 'Mismatch Type', 'Divide by Zero', 'Object Size',
  'Invalid type', 'Serialization', 'TransactionContext', 'Not implemented', 'Expression', 'Catalog', 'Parser', 'Binder',
  'Planner', 'Scheduler', 'Executor', 'Constraint', 'Index', 'Stat', 'Connection', 'Syntax', 'Settings', 'Optimizer',
  'NullPointer', 'IO', 'INTERRUPT', 'FATAL', 'INTERNAL', 'Invalid Input', 'Out of Memory', 'Permission',
  'Parameter Not Resolved', 'Parameter Not Allowed', 'Dependency', 'HTTP', 'Missing Extension', 'Extension Autoloading',
  'Sequence', 'INVALID CONFIGURATION',
];
const KIND_RE = new RegExp(`^(?:(.*?): )?(${DUCKDB_KINDS.join('|')}) Error: `);

/** A file the load was given: where it is, and how the user knows it (the `--from` path, or the URL). */
export interface GivenFile {
  path: string;
  shown: string;
}

export interface DuckdbErrorParts {
  /** DuckDB's exception type ("Invalid Input", "Conversion", …). */
  kind: string;
  /** Text a module put before DuckDB's message ("month 2024-01"), if any. */
  prefix?: string;
  /** The file DuckDB names (its path as DuckDB wrote it). */
  file?: string;
  /** The line of that file DuckDB names (1-based, the header is line 1). */
  line?: number;
  /** What happened, in plain words. */
  what: string;
  /** True when the file's content is at fault (the fix is a good copy of the file). */
  fileFault: boolean;
}

/** The first match's first group of `re` in `text`, or undefined. */
const grab = (re: RegExp, text: string): string | undefined => re.exec(text)?.[1];

/** One line of DuckDB's text, shortened: no line breaks, at most `max` characters. */
function short(text: string, max = 160): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** DuckDB's CSV reader's own wording: a line it names, the column it converts, its sniffer, its options listed. */
const CSV_READER_RE = /CSV Error on Line|Error when converting column "|Error when sniffing file|^\s*file = \S/m;

/**
 * What happened, in plain words, from DuckDB's message; `fileFault` when the file's content is the cause:
 * only for an error of DuckDB's CSV reader (CSV_READER_RE), never for one of a module's SQL.
 */
function plainWords(msg: string, kind: string, first: string, line: number | undefined): { what: string; fileFault: boolean } {
  const said = plainWordsOf(msg, kind, first, line);
  return { what: said.what, fileFault: said.fileFault && CSV_READER_RE.test(msg) };
}

/** plainWords before the CSV reader check: what each of DuckDB's messages says, and whether a CSV reader's would be the file's fault. */
function plainWordsOf(msg: string, kind: string, first: string, line: number | undefined): { what: string; fileFault: boolean } {
  const at = line !== undefined ? `line ${line}` : 'a line';
  if (/Error when sniffing file/.test(first)) {
    const want = grab(/they contain: (\d+) columns/, msg);
    const found = grab(/number of columns found by the sniffer: (\d+)/, msg);
    const counts = want && found ? `: the expected ${want} columns, DuckDB found ${found}` : '';
    return { what: `its first lines do not read as CSV${counts} (a quote left open, a line cut short, or another format)`, fileFault: true };
  }
  if (/unterminated quote|quoted new ?lines/i.test(msg)) return { what: `${at} has a quoted field that is never closed`, fileFault: true };
  const cols = /Expected Number of Columns: (\d+) Found: (\d+)/.exec(msg);
  // DuckDB stops counting at one field too many
  if (cols) return { what: Number(cols[2]) > Number(cols[1]) ? `${at} has more fields than the ${cols[1]} expected` : `${at} has ${cols[2]} fields, not the ${cols[1]} expected`, fileFault: true };
  if (/Invalid unicode|byte sequence mismatch|not (?:valid )?utf-?8/i.test(msg)) return { what: `${at} is not valid UTF-8 text`, fileFault: true };
  if (/Maximum line size/i.test(msg)) return { what: `${at} is longer than a CSV line can be (a quote left open?)`, fileFault: true };
  const conv = /Could not convert string ["'](.{0,60}?)["'] to '?([A-Za-z0-9_]+)'?/.exec(msg);
  if (conv) {
    const column = grab(/converting column "([^"]+)"/, msg) ?? grab(/from source column (\S+)/, msg);
    const where = line !== undefined ? `line ${line}${column ? `, column ${column},` : ''}` : column ? `column ${column}` : undefined;
    return { what: where ? `${where} holds "${conv[1]}", which is not a valid ${conv[2]}` : `"${conv[1]}" is not a valid ${conv[2]}`, fileFault: true };
  }
  if (/No files found that match the pattern/.test(msg)) return { what: 'the file is not there (removed while the sync ran?)', fileFault: false };
  if (/No space left on device/i.test(msg)) return { what: 'the disk is full', fileFault: false };
  if (/state machine reached an invalid state|CSV Error on Line/i.test(msg)) return { what: `${at} cannot be read as CSV (a quote or delimiter out of place)`, fileFault: true };
  // anything else: DuckDB's own first line, without the file name (said apart) and shortened
  return { what: `DuckDB's ${kind} Error: ${short(first.replace(/ (?:in|of)? ?file "[^"]*"\.?/, ''))}`, fileFault: false };
}

/** DuckDB's error, taken apart; undefined when `e` is not a DuckDB error. */
export function parseDuckdbError(e: unknown): DuckdbErrorParts | undefined {
  const msg = (e as Error)?.message ?? String(e);
  const firstLine = msg.split('\n')[0] ?? '';
  const m = KIND_RE.exec(firstLine);
  if (!m) return undefined;
  const body = msg.slice(msg.indexOf(`${m[2]} Error: `) + m[2]!.length + ' Error: '.length);
  const first = body.split('\n')[0] ?? '';
  const file = grab(/file "([^"\n]+)"/, msg) ?? grab(/^\s*file = (.+?)\s*$/m, msg) ?? grab(/match the pattern "([^"\n]+)"/, msg);
  const lineText = grab(/CSV Error on Line: (\d+)/, msg);
  const line = lineText === undefined ? undefined : Number(lineText);
  const { what, fileFault } = plainWords(msg, m[2]!, first, line);
  return {
    kind: m[2]!, ...(m[1] ? { prefix: m[1] } : {}), ...(file ? { file } : {}), ...(line !== undefined ? { line } : {}), what, fileFault,
  };
}

/**
 * How the user knows the file DuckDB names: a given file as given; a scratch copy in the load's work folder
 * (a zip member, a re-encoded copy) as its name, traced to the given file of the same name, else said to come
 * from the given file(s); with no file named, the given file when there is one.
 */
function fileShown(file: string | undefined, given: readonly GivenFile[], workDir: string | undefined): string | undefined {
  const list = (files: readonly GivenFile[]) => (files.length > 3 ? `${files.slice(0, 3).map((g) => g.shown).join(', ')}, …` : files.map((g) => g.shown).join(', '));
  if (file === undefined) return given.length === 1 ? given[0]!.shown : given.length ? `one of ${list(given)}` : undefined;
  const name = basename(file);
  // the given file itself, or a copy of it under its own name (a re-encoded copy, a member extracted whole)
  const same = given.find((g) => g.path === file) ?? given.find((g) => basename(g.path) === name);
  if (same) return same.shown;
  const rel = workDir === undefined ? '..' : relative(workDir, file);
  if (rel.startsWith('..') || isAbsolute(rel)) return file; // not the user's file (the new mirror file, a spill file): where it is
  return given.length ? `${name} (from ${list(given)})` : name;
}

/**
 * The one line for a DuckDB error raised by a load: what happened, the file, the line when DuckDB names one,
 * the fix; undefined when `e` is not a DuckDB error. Without the dataset's name (the caller adds it).
 */
export function duckdbLoadError(e: unknown, given: readonly GivenFile[], workDir?: string): string | undefined {
  const p = parseDuckdbError(e);
  if (!p) return undefined;
  // not the file's fault (a full disk, a file gone): where it happened, the path DuckDB names
  const file = !p.fileFault && p.file !== undefined && !given.some((g) => g.path === p.file) ? p.file : fileShown(p.file, given, workDir);
  const context = p.prefix ? `${p.prefix}: ` : '';
  if (p.fileFault) {
    const subject = file ?? 'a file given';
    return `${context}${subject} is not a well-formed CSV of the expected format: ${p.what}; download it again (or check it is the publisher's file, whole and unedited) and run the sync again; kept the previous data`;
  }
  return `${context}load failed${file ? ` (${file})` : ''}: ${p.what}; kept the previous data`;
}
