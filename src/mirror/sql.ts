/** `publicdata sql`: read-only SQL over every synced dataset. */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, createReadStream, mkdirSync, openSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ApiError } from '../contract/errors.js';
import { pidAlive } from '../pid.js';
import type { Out } from '../io.js';
import type { DatasetInfo } from './catalog.js';
import type { DuckDBConnection } from '@duckdb/node-api';
import { jsonConverter, loadDuckDB, STREAM_MEMORY_LIMIT, type Param, type Row } from './db.js';
import { jsonLinePlan } from './json-sql.js';
import { cacheDir, datasetPath, isDatasetPresent, mirrorDir as defaultMirrorDir, type Env } from './paths.js';

/** A string literal for DuckDB statements that take no bound parameters (ATTACH): quotes doubled. */
function sqlLiteral(s: string): string {
  if (s.includes('\0')) throw new Error('path contains a NUL byte');
  return `'${s.replace(/'/g, "''")}'`;
}

/** DuckDB memory_limit for `publicdata sql`: PUBLICDATA_SQL_MEMORY (e.g. `2GB`), else 512 MB. */
export function sqlMemoryLimit(env: Env): string {
  const v = env.PUBLICDATA_SQL_MEMORY?.trim();
  if (v === undefined || v === '') return STREAM_MEMORY_LIMIT;
  if (!/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(v)) {
    throw new ApiError(400, 'usage_error', `PUBLICDATA_SQL_MEMORY must be a size such as 512MB or 2GB; got '${v}'.`);
  }
  return v;
}

/**
 * `sql-tmp` under the cache directory, where each run keeps its spill directory and its FIFO (both named
 * by its pid), or undefined when it cannot be made (an unwritable cache). What runs that are gone left
 * there (killed by a signal they could not handle: DuckDB's spilled blocks can be gigabytes) is removed.
 */
function sqlTmp(env: Env): string | undefined {
  const dir = join(cacheDir(env), 'sql-tmp');
  try {
    mkdirSync(dir, { recursive: true });
    for (const f of readdirSync(dir)) {
      const pid = /^(\d+)(\.fifo)?$/.exec(f)?.[1];
      if (pid && Number(pid) !== process.pid && !pidAlive(Number(pid))) rmSync(join(dir, f), { recursive: true, force: true });
    }
    return dir;
  } catch {
    return undefined;
  }
}

export interface SqlResult {
  columns: Array<{ name: string; type: string }>;
  rows: Row[];
  /** Datasets attached (schema names). */
  attached: string[];
  /** True when `maxRows` cut the result short. */
  truncated?: boolean;
}

export interface SqlStreamOptions {
  env: Env;
  mirrorDir?: string;
  /** The datasets to attach when synced (the registry's catalogue). */
  datasets: readonly DatasetInfo[];
  params?: Param[];
  /** Stop after this many rows (DuckDB computes no more than it must). */
  maxRows?: number;
  /** Called once with the result's columns and the attached datasets, before any rows. */
  onStart?(info: { columns: SqlResult['columns']; attached: string[] }): void | Promise<void>;
  /** Called with each chunk of rows (DuckDB's vector size, 2,048 rows); awaited, so a slow writer slows the query. */
  onRows(rows: Row[]): void | Promise<void>;
  /**
   * Rows as NDJSON lines (no newline), rendered by DuckDB byte for byte as `JSON.stringify` of the rows
   * `onRows` would get (src/mirror/json-sql.ts), one chunk at a time, instead of `onRows`. Used when every
   * column type has an SQL rendering and the statement is a query; otherwise `onRows` gets the rows.
   */
  onLines?(lines: string[]): void | Promise<void>;
  /**
   * With `onLines`, and no `maxRows` or `params`: DuckDB writes the NDJSON lines itself (`COPY … TO`), each
   * ending in a newline, and neither callback is called for rows. `copyTo`: straight to this path, a FIFO
   * (`/dev/stdout` when the process's stdout is a pipe). `copyOut`: to this stream, through a FIFO made
   * for the run and read here (DuckDB locks any other file it writes, so two runs writing to one
   * terminal or /dev/null would collide). Neither on Windows (no FIFOs): `onLines` is used.
   */
  copyTo?: string;
  copyOut?: Out;
}

/** How the rows were rendered: JS values (`rows`), NDJSON lines read from DuckDB (`lines`), or written by DuckDB (`copy`). */
export type SqlRendering = 'rows' | 'lines' | 'copy';

/**
 * Run user SQL against every synced dataset, each ATTACHed READ_ONLY under its schema name (e.g.
 * `price_paid.price_paid`; unqualified table names resolve through the search path too). After attaching,
 * file system access is disabled and the configuration locked, and only one statement that DuckDB binds
 * as a SELECT runs (`readOnlyStatement`): DuckDB still lets a connection write the files it has attached,
 * so that check is what keeps `COPY … TO '<dataset file>'` out. Only `copyTo`, when given, is written,
 * by a COPY composed here. The result streams: one
 * DuckDB chunk at a time is converted and handed to `onRows` (or rendered and handed to `onLines`, or
 * copied to `copyTo`), so memory stays flat however many rows the query returns.
 */
export async function streamSql(sql: string, opts: SqlStreamOptions): Promise<{ rows: number; truncated: boolean; rendering: SqlRendering }> {
  const env = opts.env;
  const dir = opts.mirrorDir ?? defaultMirrorDir(env);
  const memoryLimit = sqlMemoryLimit(env); // checked before any data access
  const duck = await loadDuckDB();
  const instance = await duck.DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  let fifo: string | undefined;
  try {
    const attached: string[] = [];
    for (const info of opts.datasets) {
      if (!isDatasetPresent(info, dir)) continue;
      await conn.run(`ATTACH ${sqlLiteral(datasetPath(info, dir))} AS "${info.schema}" (READ_ONLY)`);
      attached.push(info.schema);
    }
    if (attached.length) await conn.run(`SET search_path = ${sqlLiteral(attached.map((s) => `${s}.main`).join(','))}`);
    // DuckDB keeps every block a scan has read in its buffer pool, up to memory_limit (80% of RAM by
    // default), so a full-table export grew with the table: 1.5 GB of RSS for 30M price-paid rows. A
    // bounded pool keeps the export flat; operators that need more (a large sort or hash join) spill to a
    // temporary directory under the cache instead of failing. PUBLICDATA_SQL_MEMORY overrides.
    await conn.run(`SET memory_limit = ${sqlLiteral(memoryLimit)}`);
    // Where DuckDB may spill: `sql-tmp/<pid>`, one per process, since DuckDB names its temporary files by
    // size and number alone and removes them on close (two runs sharing a directory would overwrite and
    // delete each other's blocks). DuckDB makes the last level. Without it (an unwritable cache) a query
    // over the memory limit says so.
    const tmp = sqlTmp(env);
    if (tmp) await conn.run(`SET temp_directory = ${sqlLiteral(join(tmp, String(process.pid)))}`);
    // A long export's threads keep freed memory in the allocator's caches: RSS crept from 520 to 790 MB
    // over a 12M-row COPY; flushing them above 16 MB (and from a background thread) held it to 689 MB.
    for (const set of [`SET allocator_flush_threshold = '16MB'`, 'SET allocator_background_threads = true']) {
      await conn.run(set).catch(() => undefined); // settings of the bundled allocator; absent elsewhere
    }
    const params = opts.params ?? [];
    // DuckDB itself writes the lines only for a query without --max-rows or parameters; the read-only
    // check below refuses everything but one SELECT, so the only path a statement may write is copyTo.
    const copying = opts.onLines && opts.maxRows === undefined && params.length === 0;
    if (copying && !opts.copyTo && opts.copyOut && tmp) fifo = makeFifo(tmp);
    const copyTo = copying ? (opts.copyTo ?? fifo) : undefined;
    if (copyTo) await conn.run(`SET allowed_paths = [${sqlLiteral(copyTo)}]`);
    // No extension may be fetched or loaded by name from a query (SELECT * FROM st_read(...) would).
    for (const set of ['SET autoinstall_known_extensions = false', 'SET autoload_known_extensions = false']) await conn.run(set);
    await conn.run('SET enable_external_access = false');
    await conn.run('SET lock_configuration = true');
    // DuckDB lets a connection write the files it has attached (READ_ONLY guards only its own writes:
    // `COPY … TO '<dataset file>'` overwrote one), so only one statement that binds as a SELECT runs.
    await readOnlyStatement(conn, sql);
    // The one path a query may open is where DuckDB writes its lines: a query reading it (read_text of
    // /dev/stdout) would wait on its own output for ever. Refused when a file-reading function's first
    // string, or a quoted name after FROM/JOIN, names it (a name built to dodge this only stalls the
    // caller's own run: nothing else is readable); other text with /dev/ or stdout in it runs.
    if (copyTo && readsPath(sql, (p) => /\/dev\/|\/proc\/|stdout/i.test(p) || p.includes(basename(copyTo)))) {
      throw new ApiError(400, 'invalid_parameter', "sql: the query reads this run's own output (/dev/stdout or the like), which it cannot.");
    }
    const max = opts.maxRows ?? Infinity;
    const plan = opts.onLines ? await linePlan(conn, sql) : undefined;
    if (plan) {
      uniqueColumns(plan.columns.map((c) => c.name));
      await opts.onStart?.({ columns: plan.columns, attached });
      if (copyTo) {
        // One column, never NULL, without control characters (JSON escapes them): CSV with no quoting and
        // a delimiter that cannot occur writes each line as it is.
        const copySql = `COPY (${plan.sql}) TO ${sqlLiteral(copyTo)} (FORMAT csv, HEADER false, QUOTE '', ESCAPE '', DELIMITER '\x01', USE_TMP_FILE false)`;
        // The user's query wrapped must still be one statement (nothing in it can close the wrapper).
        if ((await conn.extractStatements(copySql)).count !== 1) throw new Error('sql: the query cannot be wrapped for streaming');
        const copy = conn.run(copySql);
        const relayed = fifo ? relay(fifo, opts.copyOut!, copy) : Promise.resolve();
        // Both settled before anything is reported: the relay has written every whole line by then
        const [c, r] = await Promise.allSettled([copy, relayed]);
        if (c.status === 'rejected') throw new SqlCopyError((c.reason as Error).message, !fifo);
        if (r.status === 'rejected') throw r.reason;
        return { rows: Number(c.value.rowsChanged), truncated: false, rendering: 'copy' };
      }
      const result = await conn.stream(plan.sql, params as never);
      let count = 0;
      for (;;) {
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) return { rows: count, truncated: false, rendering: 'lines' };
        if (count >= max) return { rows: count, truncated: true, rendering: 'lines' };
        const take = Math.min(chunk.rowCount, max - count);
        const v = chunk.getColumnVector(0);
        const lines: string[] = new Array(take);
        for (let r = 0; r < take; r++) lines[r] = v.getItem(r) as string;
        count += take;
        await opts.onLines!(lines);
        if (take < chunk.rowCount) return { rows: count, truncated: true, rendering: 'lines' };
      }
    }
    const result = await conn.stream(sql, params as never);
    const names = result.columnNames();
    uniqueColumns(names);
    const types = result.columnTypes();
    await opts.onStart?.({ columns: result.columnNames().map((n, i) => ({ name: n, type: types[i]!.toString() })), attached });
    const conv = await jsonConverter();
    let count = 0;
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) return { rows: count, truncated: false, rendering: 'rows' };
      if (count >= max) return { rows: count, truncated: true, rendering: 'rows' };
      const values = chunk.convertRows(conv);
      const take = Math.min(values.length, max - count);
      const rows: Row[] = new Array(take);
      for (let r = 0; r < take; r++) {
        const v = values[r]!;
        const o: Row = {};
        for (let c = 0; c < names.length; c++) o[names[c]!] = v[c];
        rows[r] = o;
      }
      count += take;
      await opts.onRows(rows);
      if (take < values.length) return { rows: count, truncated: true, rendering: 'rows' };
    }
  } finally {
    conn.closeSync();
    instance.closeSync();
    if (fifo) rmSync(fifo, { force: true });
  }
}

/**
 * DuckDB's COPY failed. `direct`: it was writing to stdout itself, so the output may end inside a line
 * (the FIFO relay writes only whole lines).
 */
export class SqlCopyError extends Error {
  constructor(
    message: string,
    readonly direct: boolean,
  ) {
    super(message);
  }
}

/** Whether a string the query would open as a file (a read function's first argument, FROM 'x') matches. */
function readsPath(sql: string, bad: (path: string) => boolean): boolean {
  const opened = [
    ...sql.matchAll(/\b(?:read_\w+|glob|parquet_\w+|sniff_csv)\s*\(\s*\[?\s*'((?:[^']|'')*)'/gi),
    ...sql.matchAll(/\b(?:from|join)\s+'((?:[^']|'')*)'/gi),
  ];
  return opened.some((m) => bad(m[1]!.replace(/''/g, "'")));
}

/**
 * A result whose columns repeat a name (`SELECT *` over a join, `SELECT 1 a, 2 a`) is refused before
 * anything is written: a JSON object or CSV header keeps one column per name, so the other would be lost.
 */
function uniqueColumns(names: readonly string[]): void {
  const seen = new Set<string>();
  const twice = [...new Set(names.filter((n) => seen.has(n) || !seen.add(n)))];
  if (twice.length) {
    throw new ApiError(
      400,
      'invalid_parameter',
      `sql: the result names ${twice.length === 1 ? 'a column' : 'columns'} twice (${twice.map((n) => `'${n}'`).join(', ')}), and one of each would be lost; give them their own names (SELECT l.name AS listed_name, c.name AS area_name ...).`,
    );
  }
}

/**
 * Refuse anything but exactly one statement that DuckDB binds as a SELECT (WITH, FROM-first, VALUES,
 * DESCRIBE, SHOW, SUMMARIZE and table-valued PRAGMAs bind as SELECT too): by DuckDB's own parser and
 * binder, not by matching text, so no spelling of COPY, ATTACH, INSTALL, LOAD, SET, EXPORT, CREATE, CALL
 * or a write gets through. Binding runs nothing. Errors are 400 invalid_parameter.
 */
export async function readOnlyStatement(conn: DuckDBConnection, sql: string): Promise<void> {
  let extracted;
  try {
    extracted = await conn.extractStatements(sql);
  } catch (e) {
    const m = (e as Error).message;
    // DuckDB's C API reports zero statements (an empty string, only a comment or `;`) as this.
    if (/native callback/i.test(m) || sql.replace(/--[^\n]*|\/\*[\s\S]*?\*\/|[\s;]/g, '') === '') {
      throw new ApiError(400, 'invalid_parameter', 'sql: no SQL statement given; pass one SELECT query, e.g. publicdata sql "SELECT count(*) FROM price_paid.price_paid".');
    }
    throw new ApiError(400, 'invalid_parameter', `SQL error: ${m.replace(/^Failed to extract statements: /, '')}`);
  }
  if (extracted.count !== 1) {
    throw new ApiError(400, 'invalid_parameter', `sql: one statement per call; this has ${extracted.count}. Run each one separately.`);
  }
  const refuse = () =>
    new ApiError(400, 'invalid_parameter', `sql is read-only: only a query (SELECT, WITH, FROM, VALUES, DESCRIBE, SHOW, SUMMARIZE) may run; this is ${statementWord(sql)} statement.`);
  let p;
  try {
    p = await extracted.prepare(0);
  } catch (e) {
    // Binding failed: a statement other than a query (COPY to a path outside allowed_paths fails here)
    // is refused as such; a query's own error (an unknown table) is reported as it is.
    if (!(await parsesAsSelect(conn, sql))) throw refuse();
    throw new ApiError(400, 'invalid_parameter', `SQL error: ${(e as Error).message}`);
  }
  try {
    const duck = await loadDuckDB();
    if (p.statementType !== duck.StatementType.SELECT) throw refuse();
  } finally {
    p.destroySync();
  }
}

/** Whether DuckDB's parser reads `sql` as a SELECT (json_serialize_sql serialises nothing else). */
async function parsesAsSelect(conn: DuckDBConnection, sql: string): Promise<boolean> {
  try {
    const r = await conn.runAndReadAll('SELECT json_serialize_sql(CAST($1 AS VARCHAR))::VARCHAR AS j', [sql]);
    const parsed = JSON.parse(String(r.getRows()[0]?.[0] ?? '{}')) as { error?: boolean; error_message?: string };
    return !(parsed.error === true && /only SELECT/i.test(parsed.error_message ?? ''));
  } catch {
    return true;
  }
}

/** 'a COPY' / 'an INSERT': the statement's first word, for the message only (the check is DuckDB's). */
function statementWord(sql: string): string {
  const w = (/^[\s(]*([A-Za-z]+)/.exec(sql.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' '))?.[1] ?? 'such a').toUpperCase();
  return w === 'SUCH A' ? 'such a' : `${/^[AEIOU]/.test(w) ? 'an' : 'a'} ${w}`;
}

/** A FIFO beside the spill directory (`sql-tmp/<pid>.fifo`), or undefined where none can be made. */
function makeFifo(tmp: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  try {
    const path = join(tmp, `${process.pid}.fifo`);
    rmSync(path, { force: true });
    execFileSync('mkfifo', ['-m', '600', path], { stdio: 'ignore' });
    return path;
  } catch {
    return undefined;
  }
}

/**
 * Copy what DuckDB writes into `fifo` to `out`, waiting for `out` to drain (DuckDB then blocks on the
 * full pipe: flat memory). Writes end on a line, so a character is never split between two writes.
 * When the COPY fails before it opened the FIFO, opening it here lets the read end.
 */
async function relay(fifo: string, out: Out, copy: Promise<unknown>): Promise<void> {
  const rs = createReadStream(fifo, { highWaterMark: 1 << 16 });
  copy.catch(() => {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      /* the read end is closed already */
    }
  });
  const write = (b: Buffer) => (out.write(b) === false && out.once ? new Promise<void>((r) => out.once!('drain', r)) : undefined);
  let rest: Buffer | undefined;
  try {
    for await (const b of rs as AsyncIterable<Buffer>) {
      const buf = rest ? Buffer.concat([rest, b]) : b;
      const end = buf.lastIndexOf(10) + 1;
      rest = end < buf.length ? buf.subarray(end) : undefined;
      if (end > 0) await write(buf.subarray(0, end));
    }
    // An unfinished last line is written only if the COPY succeeded (it ends every line, so then there is
    // none); after a failure the error envelope follows the last whole line.
    if (rest && (await copy.then(() => true, () => false))) await write(rest);
  } finally {
    rs.destroy();
  }
}

/**
 * The SQL that renders `sql`'s rows as NDJSON lines, with the query's columns; undefined (the JS path)
 * when the statement is not a single query, a column type has no SQL rendering, or the wrapped query
 * does not prepare (a trailing `;` or comment, a statement DuckDB cannot nest). Preparing binds the
 * query without running it.
 */
async function linePlan(conn: DuckDBConnection, sql: string): Promise<{ sql: string; columns: SqlResult['columns'] } | undefined> {
  let p;
  try {
    p = await conn.prepare(sql);
  } catch {
    return undefined; // the JS path runs it and reports the error
  }
  try {
    const duck = await loadDuckDB();
    if (p.statementType !== duck.StatementType.SELECT) return undefined;
    const cols = Array.from({ length: p.columnCount }, (_, i) => ({ name: p.columnName(i), type: p.columnType(i) }));
    const plan = jsonLinePlan(sql.replace(/[\s;]+$/, ''), cols);
    if (!plan) return undefined;
    const wrapped = await conn.prepare(plan.sql);
    const select = wrapped.statementType === duck.StatementType.SELECT;
    wrapped.destroySync();
    if (!select) return undefined;
    return { sql: plan.sql, columns: cols.map((c) => ({ name: c.name, type: c.type.toString() })) };
  } catch {
    return undefined;
  } finally {
    p.destroySync();
  }
}

/** `streamSql` collected into one result (for small results and tests). */
export async function runSql(sql: string, opts: Omit<SqlStreamOptions, 'onRows' | 'onStart'>): Promise<SqlResult> {
  let columns: SqlResult['columns'] = [];
  let attached: string[] = [];
  const rows: Row[] = [];
  const { truncated } = await streamSql(sql, {
    ...opts,
    onStart: (i) => {
      columns = i.columns;
      attached = i.attached;
    },
    onRows: (chunk) => {
      for (const r of chunk) rows.push(r);
    },
  });
  return { columns, rows, attached, ...(truncated ? { truncated } : {}) };
}
