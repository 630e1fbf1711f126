/**
 * Read-only access to dataset files. DuckDB is imported lazily, on the first query, so commands that
 * never touch the mirror do not pay for loading it.
 */
import type { DuckDBConnection, DuckDBInstance, DuckDBValue, DuckDBValueConverter } from '@duckdb/node-api';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { meta } from '../contract/envelope.js';
import type { Meta, RecordSink } from '../contract/types.js';
import type { DatasetInfo } from './catalog.js';
import { datasetDamaged, datasetNotSynced, isDamageError } from './errors.js';
import { datasetPath, isDatasetPresent } from './paths.js';
import { csvLinePlan } from './csv-sql.js';
import { jsKeyOrder, jsonLinePlan } from './json-sql.js';

type Duck = typeof import('@duckdb/node-api');
let duckPromise: Promise<Duck> | undefined;
/**
 * `@duckdb/node-api` is CommonJS: loaded with require(), not import(). An ES import of a CommonJS package
 * runs Node's CommonJS export lexer over it and the files it re-exports: measured 480-850 ms against
 * 260-350 ms for require() on the loaded 2-core machine, in every process that opens the mirror.
 */
export function loadDuckDB(): Promise<Duck> {
  return (duckPromise ??= Promise.resolve().then(() => createRequire(import.meta.url)('@duckdb/node-api') as Duck));
}

/** A JSON-friendly value: what `query` returns for each column. */
export type Row = Record<string, unknown>;
/** Values that may be bound to `?` / `$n` parameters. */
export type Param = string | number | boolean | null | bigint | Date;

interface Open {
  instance: DuckDBInstance;
  conn: DuckDBConnection;
  /** Identity of the file when opened: a sync renames a new file over it (new inode). */
  ino: number;
  mtimeMs: number;
}
const opened = new Map<string, Promise<Open>>();
/** The dataset of each connection openDataset made: a damaged-file error names the file. */
const connDataset = new WeakMap<DuckDBConnection, { info: DatasetInfo; path: string }>();

/** A DuckDB error on a dataset connection: `dataset_damaged` naming the file when the file is damaged. */
function translate(conn: DuckDBConnection, e: unknown): unknown {
  const ds = connDataset.get(conn);
  return ds && isDamageError(e) ? datasetDamaged(ds.info, ds.path, e) : e;
}

/**
 * Open a dataset file read-only (one instance per file per process, cached). When a sync has swapped a
 * new file into place since, the next call opens the new file; the old instance keeps answering queries
 * already in flight (the renamed-over inode stays readable until closed).
 * Throws ApiError 503 `dataset_not_synced` when the dataset has no file.
 */
export async function openDataset(info: DatasetInfo, mirrorDir: string): Promise<DuckDBConnection> {
  const path = datasetPath(info, mirrorDir);
  if (!isDatasetPresent(info, mirrorDir)) throw datasetNotSynced(info);
  const st = statSync(path);
  const cached = opened.get(path);
  if (cached) {
    const o = await cached.catch(() => undefined);
    if (o && o.ino === st.ino && o.mtimeMs === st.mtimeMs) return o.conn;
    opened.delete(path);
    if (o) {
      // Replaced by a sync: close the old instance once queries still running on it have had time to finish.
      setTimeout(() => {
        try {
          o.conn.closeSync();
          o.instance.closeSync();
        } catch {
          /* already closed */
        }
      }, 60_000).unref();
    }
  }
  const p = (async (): Promise<Open> => {
    const duck = await loadDuckDB();
    let instance: DuckDBInstance;
    try {
      instance = await duck.DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
    } catch (e) {
      throw isDamageError(e) ? datasetDamaged(info, path, e) : e;
    }
    const conn = await instance.connect();
    connDataset.set(conn, { info, path });
    return { instance, conn, ino: st.ino, mtimeMs: st.mtimeMs };
  })();
  opened.set(path, p);
  try {
    return (await p).conn;
  } catch (e) {
    opened.delete(path);
    throw e;
  }
}

/** Close every cached dataset instance (tests, and before a process exits in `serve`). */
export async function closeAll(): Promise<void> {
  const all = [...opened.values()];
  opened.clear();
  for (const p of all) {
    try {
      const o = await p;
      o.conn.closeSync();
      o.instance.closeSync();
    } catch {
      /* already gone */
    }
  }
}

let converter: DuckDBValueConverter<unknown> | undefined;
/**
 * JSON-friendly values: BIGINT/HUGEINT/UBIGINT → number, DECIMAL → number, DATE → 'YYYY-MM-DD',
 * TIMESTAMP(_TZ/_S/_MS/_NS) → ISO 8601 UTC, UUID → lowercase string, everything else as DuckDB's JSON converter.
 */
export async function jsonConverter(): Promise<DuckDBValueConverter<unknown>> {
  if (converter) return converter;
  const d = await loadDuckDB();
  const T = d.DuckDBTypeId;
  const toNumber = (v: DuckDBValue): number => Number(v as bigint);
  const toIso = (v: DuckDBValue): string => {
    const s = String(v);
    // DuckDB renders 'YYYY-MM-DD HH:MM:SS[.ffffff][+00]'; go through Date for a canonical ISO string.
    const date = new Date(s.replace(' ', 'T').replace(/(\+00(:?00)?)?$/, 'Z'));
    return Number.isNaN(date.getTime()) ? s : date.toISOString();
  };
  const base = (d as unknown as { JsonDuckDBValueConverter: DuckDBValueConverter<unknown> }).JsonDuckDBValueConverter;
  const overrides: Partial<Record<number, DuckDBValueConverter<unknown>>> = {
    [T.BIGINT]: toNumber,
    [T.UBIGINT]: toNumber,
    [T.HUGEINT]: toNumber,
    [T.UHUGEINT]: toNumber,
    [T.DECIMAL]: (v) => d.doubleFromDecimalValue(v),
    [T.DATE]: (v) => String(v),
    [T.TIMESTAMP]: toIso,
    [T.TIMESTAMP_S]: toIso,
    [T.TIMESTAMP_MS]: toIso,
    [T.TIMESTAMP_NS]: toIso,
    [T.TIMESTAMP_TZ]: (v) => d.dateFromTimestampTZValue(v).toISOString(),
  };
  converter = (value, type, self) => {
    if (value === null) return null;
    const o = overrides[type.typeId];
    return o ? o(value, type, self) : base(value, type, self);
  };
  return converter;
}

function bindable(p: Param): DuckDBValue {
  if (p instanceof Date) return p.toISOString();
  return p as DuckDBValue;
}

/** A quoted SQL identifier (column or table name): `"name"`, inner quotes doubled. */
export function quoteIdent(id: string): string {
  return `"${id.replace(/"/g, '""')}"`;
}

/** Run a parameterised query (`?` or `$1` placeholders) and return JSON-friendly row objects. */
export async function query<T extends Row = Row>(conn: DuckDBConnection, sql: string, params: Param[] = []): Promise<T[]> {
  const conv = await jsonConverter();
  try {
    const reader = await conn.runAndReadAll(sql, params.map(bindable));
    return reader.convertRowObjects(conv) as T[];
  } catch (e) {
    throw translate(conn, e);
  }
}

/** First row or undefined. */
export async function queryOne<T extends Row = Row>(conn: DuckDBConnection, sql: string, params: Param[] = []): Promise<T | undefined> {
  return (await query<T>(conn, sql, params))[0];
}

/** The WHERE clause of a filtered list: conditions joined by AND, with their bound parameters. */
export class Where {
  readonly parts: string[] = [];
  readonly params: Param[] = [];
  add(sql: string, ...params: Param[]): this {
    this.parts.push(sql);
    this.params.push(...params);
    return this;
  }
  get sql(): string {
    return this.parts.length ? `WHERE ${this.parts.join(' AND ')}` : '';
  }
}

/**
 * One page of `SELECT <columns> FROM <from> <where> ORDER BY <orderBy>` and the total count of matches
 * (`page` is one-based). A page past the end is not queried.
 *
 * With `stream` (the handler context's `sink`, for `--all` on the local backend) it runs one query: the
 * same SQL without LIMIT, from this page's offset to the end, streamed from DuckDB chunk by chunk
 * (each mapped and awaited by the sink, so memory stays flat); no count query. It returns no rows and,
 * as `total`, the offset plus the rows streamed.
 *
 * `totalInPage`, for a query whose matches are few by construction (a point-and-radius search: the rows
 * within a few km): one query, the page with `count(*) OVER ()` beside each row, instead of a count and
 * then the page. One scan instead of two, and no late materialisation: DuckDB answers `ORDER BY … LIMIT`
 * straight over a table scan by sorting row ids and then scanning every column of the row groups those
 * rows lie in again (a whole row group of 64-character crime ids for 25 rows), where the window's input
 * is only the matching rows (docs/performance.md, "The radius query"). A page past the end has no row to
 * carry the total: the count is then asked for as without the option. Never for an unbounded filter: the
 * window holds every match.
 */
export async function pagedQuery<T extends Row = Row>(
  conn: DuckDBConnection,
  o: {
    from: string; columns?: string; where: Where; orderBy: string; page: number; perPage: number;
    /** Parameters of `columns` (bound before the WHERE's), e.g. a radius search's distance. */
    columnParams?: Param[];
    totalInPage?: boolean;
    /**
     * `record`: the record `map` makes, as an SQL select list over `from` (`<expr> AS <key>, …`, keys in
     * the record's order, values of the types the converter turns into what `map` gives): with it, a sink
     * that takes rendered lines gets them from DuckDB (`streamRendered`).
     */
    stream?: { sink: RecordSink | undefined; map: (row: T) => unknown; record?: string };
  },
): Promise<{ rows: T[]; total: number }> {
  const offset = (o.page - 1) * o.perPage;
  const tail = `FROM ${o.from} ${o.where.sql} ORDER BY ${o.orderBy}`;
  const select = `SELECT ${o.columns ?? '*'} ${tail}`;
  const sink = o.stream?.sink;
  const columnParams = o.columnParams ?? [];
  if (sink) {
    const rendered = sink.rendered && o.stream!.record !== undefined
      ? await streamRendered(conn, `SELECT ${o.stream!.record} ${tail} OFFSET ?`, [...o.where.params, offset], sink)
      : undefined;
    const n = rendered ?? (await streamRows<T>(conn, `${select} OFFSET ?`, [...columnParams, ...o.where.params, offset], sink, o.stream!.map));
    return { rows: [], total: offset + n };
  }
  const countAll = async () => (await queryOne<{ n: number }>(conn, `SELECT count(*) AS n FROM ${o.from} ${o.where.sql}`, o.where.params))?.n ?? 0;
  if (o.totalInPage) {
    const withTotal = await query<T & { [TOTAL_COLUMN]: number }>(
      conn,
      `SELECT ${o.columns ?? '*'}, count(*) OVER () AS ${TOTAL_COLUMN} ${tail} LIMIT ? OFFSET ?`,
      [...columnParams, ...o.where.params, o.perPage, offset],
    );
    if (!withTotal.length) return { rows: [], total: offset > 0 ? await countAll() : 0 };
    const total = Number(withTotal[0]![TOTAL_COLUMN]);
    const rows = withTotal.map((r) => {
      const { [TOTAL_COLUMN]: _, ...rest } = r;
      return rest as unknown as T;
    });
    return { rows, total };
  }
  const total = await countAll();
  const rows = total > offset ? await query<T>(conn, `${select} LIMIT ? OFFSET ?`, [...columnParams, ...o.where.params, o.perPage, offset]) : [];
  return { rows, total };
}

/** The column `pagedQuery`'s `totalInPage` carries the total in (taken off the rows it returns). */
const TOTAL_COLUMN = '__paged_total';

/**
 * DuckDB memory_limit while a result streams to the end (`sql`, local `--all`): enough for the scan and
 * a sort, small enough that the buffer pool does not grow with the table.
 */
export const STREAM_MEMORY_LIMIT = '512MB';

/**
 * A query run once to the end, its column names and its DuckDB chunks one at a time (errors translated).
 * One pass over the table in a one-shot process: without a bound, DuckDB's buffer pool keeps every block
 * the scan reads (1.5 GB of RSS for `price-paid search --town … --all` on the 30M-row mirror), hence
 * STREAM_MEMORY_LIMIT.
 */
async function streamChunks(conn: DuckDBConnection, sql: string, params: Param[]) {
  await conn.run(`SET memory_limit = '${STREAM_MEMORY_LIMIT}'`);
  const result = await conn.stream(sql, params.map(bindable)).catch((e: unknown) => {
    throw translate(conn, e);
  });
  async function* chunks() {
    for (;;) {
      const chunk = await result.fetchChunk().catch((e: unknown) => {
        throw translate(conn, e);
      });
      if (!chunk || chunk.rowCount === 0) return;
      yield chunk;
    }
  }
  return { names: result.columnNames(), chunks: chunks() };
}

/** Run a query once and hand its rows to `sink` one DuckDB chunk at a time, mapped; returns the row count. */
export async function streamRows<T extends Row = Row>(
  conn: DuckDBConnection, sql: string, params: Param[], sink: RecordSink, map: (row: T) => unknown,
): Promise<number> {
  const conv = await jsonConverter();
  const { names, chunks } = await streamChunks(conn, sql, params);
  sink.start();
  let count = 0;
  for await (const chunk of chunks) {
    const values = chunk.convertRows(conv);
    const out: unknown[] = new Array(values.length);
    for (let r = 0; r < values.length; r++) {
      const v = values[r]!;
      const row: Row = {};
      for (let c = 0; c < names.length; c++) row[names[c]!] = v[c];
      out[r] = map(row as T);
    }
    count += values.length;
    await sink.write(out);
  }
  return count;
}

/**
 * Run a query once and hand its rows to `sink.rendered` as NDJSON or CSV text, rendered by DuckDB
 * (src/mirror/json-sql.ts, csv-sql.ts: byte for byte the JavaScript renderers' text), one chunk at a time;
 * returns the row count, or undefined (nothing run) when a column type has no SQL rendering. JavaScript
 * reads one string per row: converting 15 values and building and rendering an object per row cost
 * ~9 µs a row (`price-paid search --all`, issue 28; docs/performance.md).
 */
export async function streamRendered(conn: DuckDBConnection, sql: string, params: Param[], sink: RecordSink): Promise<number | undefined> {
  const out = sink.rendered!;
  let plan: { sql: string; columns: string[] } | undefined;
  try {
    const p = await conn.prepare(sql);
    try {
      const cols = Array.from({ length: p.columnCount }, (_, i) => ({ name: p.columnName(i), type: p.columnType(i) }));
      if (out.format === 'csv') plan = csvLinePlan(sql, cols);
      else {
        const json = jsonLinePlan(sql, cols);
        plan = json && { sql: json.sql, columns: jsKeyOrder(cols.map((c) => c.name)).map(([k]) => k) };
      }
    } finally {
      p.destroySync();
    }
  } catch (e) {
    throw translate(conn, e);
  }
  if (!plan) return undefined;
  const eol = out.format === 'csv' ? '\r\n' : '\n';
  const { chunks } = await streamChunks(conn, plan.sql, params);
  sink.start();
  let count = 0;
  for await (const chunk of chunks) {
    const v = chunk.getColumnVector(0);
    let text = '';
    for (let r = 0; r < chunk.rowCount; r++) text += `${v.getItem(r) as string}${eol}`;
    count += chunk.rowCount;
    await out.write(text, chunk.rowCount, plan.columns);
  }
  return count;
}

export interface SyncLogEntry {
  dataset: string;
  source_url: string | null;
  published: string | null;
  sha256: string | null;
  bytes: number | null;
  rows_loaded: number;
  rows_rejected: number;
  rows_total: number | null;
  duration_ms: number;
  mode: 'full' | 'incremental';
  as_of: string | null;
  synced_at: string;
  files: string | null;
  tool_version: string | null;
}

/** The newest sync_log row of an open dataset file. */
export async function lastSync(conn: DuckDBConnection): Promise<SyncLogEntry | undefined> {
  try {
    return await queryOne<SyncLogEntry & Row>(conn, 'SELECT * FROM sync_log ORDER BY synced_at DESC LIMIT 1');
  } catch {
    return undefined;
  }
}

const provenanceCache = new WeakMap<DuckDBConnection, Meta>();
/** `meta` for a local answer: api_version, licence, source, source_url, and as_of from the sync_log. */
export async function provenanceMeta(info: DatasetInfo, conn: DuckDBConnection, extra: Record<string, unknown> = {}): Promise<Meta> {
  let base = provenanceCache.get(conn);
  if (!base) {
    const log = await lastSync(conn);
    const asOf = log?.as_of ?? log?.published ?? (log?.synced_at ? log.synced_at.slice(0, 10) : undefined);
    base = meta({ licence: info.licence, source: info.publisher, source_url: info.sourceUrl, ...(asOf ? { as_of: asOf } : {}) });
    provenanceCache.set(conn, base);
  }
  return { ...base, ...extra };
}
