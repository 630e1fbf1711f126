/**
 * The local mirror: `sync`, `mirror status|path|export`, `sql`. One DuckDB file per dataset; a sync
 * builds a new file and swaps it in atomically (sync/framework.ts).
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { ApiError, EXIT } from '../src/contract/errors.js';
import { meta } from '../src/contract/envelope.js';
import type { Context } from '../src/context.js';
import { printError, renderContext, type GlobalOptions } from '../src/invoke.js';
import type { Row } from '../src/output/records.js';
import { captureStdout, drainWrite, writeOutput } from '../src/output/renderers.js';
import { existsSync, fstatSync, statSync } from 'node:fs';
import { DATASETS as CATALOGUE, datasetByName } from '../src/registry.js';
import type { DatasetInfo } from '../src/mirror/catalog.js';
import { isDatasetPresent, mirrorDir } from '../src/mirror/paths.js';
import { SYNC_DATASETS } from '../sync/registry.js';
import { globalOptions } from './global.js';
import { parseRateOption, parseYearsOption } from './sync-options.js';
import { helpWithExamples, setExit } from './route-command.js';

/** Every dataset with a sync module (the registry imports none of them until used). */
const DATASETS: readonly string[] = SYNC_DATASETS;

/** Write command rows (sync report, status, sql result, export report) through the renderer registry. */
async function writeRows(ctx: Context, g: GlobalOptions, id: string, rows: Row[], extraMeta: Record<string, unknown> = {}): Promise<void> {
  await writeOutput(ctx.io, { envelope: { data: rows, meta: meta(extraMeta) }, id }, renderContext(ctx, g));
}

/** Dataset names given to `mirror status|export`: each must be in the catalogue (usage error, exit 2). */
function checkDatasets(command: string, names: readonly string[]): DatasetInfo[] {
  const unknown = names.filter((n) => !datasetByName(n));
  if (unknown.length) throw new ApiError(400, 'usage_error', `${command}: unknown dataset ${unknown.map((u) => `'${u}'`).join(', ')}. Datasets: ${CATALOGUE.map((d) => d.name).join(', ')}.`);
  return names.length ? names.map((n) => datasetByName(n)!) : [...CATALOGUE];
}

/** `--out` of mirror export: a directory that exists or can be made; never a file, never ''. */
function checkOutDir(out: string): void {
  if (out.trim() === '') throw new ApiError(400, 'usage_error', "mirror export: --out needs a directory (got '').");
  if (existsSync(out) && !statSync(out).isDirectory()) throw new ApiError(400, 'usage_error', `mirror export: --out '${out}' exists and is not a directory.`);
}

function fail(e: unknown): never {
  if (e instanceof ApiError) throw e;
  const err = e as Error & { dataset?: string };
  throw new ApiError(500, 'sync_failed', err?.message ?? String(e));
}

export function registerMirror(program: Command, ctx: Context): void {
  const run = async (self: Command, fn: () => Promise<number>) => {
    const g = (() => {
      try {
        return globalOptions(self, ctx);
      } catch {
        return { format: 'json', color: false } as const;
      }
    })();
    try {
      setExit(self, await fn());
    } catch (e) {
      if (e instanceof ApiError) return setExit(self, await printError(ctx, e, g as never));
      throw e;
    }
  };

  program
    .command('sync')
    .summary('download upstream open data into the local DuckDB mirror')
    .description(
      helpWithExamples(
        `Sync datasets into the mirror: discover the current upstream file, download (resumable), load into a new\nDuckDB file, verify, and swap it in atomically. Datasets: ${DATASETS.join(', ')}.`,
        ['publicdata sync price-paid --years 2020-2025', 'publicdata sync price-paid --from pp-monthly-update-new-version.csv', 'publicdata sync accounts --days 30', 'publicdata sync --all'],
      ),
    )
    .argument('[dataset...]', DATASETS.join(', '))
    .option('--all', 'every dataset')
    .option('--from <file-or-url>', 'use this file, folder or URL (prefix ending in /) instead of discovering the upstream files; repeatable', (v: string, prev: string[] = []) => [...prev, v])
    .option('--years <from-to>', 'price-paid yearly files; road-safety years (default 2021 to the latest final year); e.g. 2020-2025')
    .option('--days <n>', 'accounts: the daily zips of the last N days (quick start: --days 30)')
    .option('--authorities <codes>', "food-hygiene: only these FSA local authority codes, comma-separated (quick start: one council, e.g. 314)")
    .option('--months <n>', 'accounts: the last N months (default 12; 60 matches the live five years); crime: the newest N months of the archive (default 12)')
    .option('--forces <slugs>', 'crime: only these police forces, comma-separated slugs (e.g. metropolitan,city-of-london)')
    .option('--force', 'full reload even when up to date (or when an update could be applied); with --from, replaces instead of adding')
    .option('--replace', 'with --from: replace the data of a dataset that accumulates (accounts zips, MOT years, price-paid yearly files) instead of adding to it')
    .option('--keep-downloads', 'keep the downloaded files in the cache (default: removed once loaded and verified)')
    .option('--allow-shrink', 'accept a full reload of the same file(s) with more than 10% fewer rows than before')
    .option('--limit-rate <rate>', 'cap the download bandwidth, bytes per second (e.g. 500k, 2M)')
    .action((names: string[], o: {
      all?: boolean; from?: string[]; years?: string; days?: string; months?: string; authorities?: string; forces?: string; force?: boolean; limitRate?: string;
      replace?: boolean; keepDownloads?: boolean; allowShrink?: boolean;
    }, self: Command) =>
      run(self, async () => {
        const g = globalOptions(self, ctx);
        const list = o.all ? [...DATASETS] : names;
        if (list.length === 0) throw new ApiError(400, 'usage_error', `sync: name one or more datasets (${DATASETS.join(', ')}) or --all.`);
        const unknown = list.filter((n) => !DATASETS.includes(n));
        if (unknown.length) throw new ApiError(400, 'usage_error', `sync: unknown dataset ${unknown.map((u) => `'${u}'`).join(', ')}. Datasets: ${DATASETS.join(', ')}.`);
        if (o.from && list.length !== 1) throw new ApiError(400, 'usage_error', 'sync: --from takes exactly one dataset.');
        if (o.replace && !o.from) throw new ApiError(400, 'usage_error', 'sync: --replace goes with --from (it says whether the file replaces the data or is added to it).');
        const fw = await import('../sync/framework.js');
        let years: { from: number; to: number } | undefined;
        if (o.years) {
          try {
            years = parseYearsOption(o.years, list);
          } catch (e) {
            throw new ApiError(400, 'usage_error', (e as Error).message);
          }
        }
        let maxBytesPerSecond: number | undefined;
        if (o.limitRate !== undefined) {
          try {
            maxBytesPerSecond = parseRateOption(o.limitRate);
          } catch (e) {
            throw new ApiError(400, 'usage_error', (e as Error).message);
          }
        }
        const scope: { days?: number; months?: number } = {};
        for (const k of ['days', 'months'] as const) {
          const v = o[k];
          if (v === undefined) continue;
          const n = Number(v);
          if (!/^\d+$/.test(v) || n < 1 || n > (k === 'days' ? 366 : 240)) {
            throw new ApiError(400, 'usage_error', `sync: --${k} must be a whole number from 1 to ${k === 'days' ? 366 : 240}, got '${v}'.`);
          }
          scope[k] = n;
        }
        if (scope.days !== undefined && scope.months !== undefined) throw new ApiError(400, 'usage_error', 'sync: give --days or --months, not both.');
        const authorities = o.authorities?.split(',').map((a) => a.trim()).filter(Boolean);
        if (authorities && (!authorities.length || authorities.some((a) => !/^\d{1,4}$/.test(a)))) {
          throw new ApiError(400, 'usage_error', `sync: --authorities takes FSA authority codes such as 314,760, got '${o.authorities}'.`);
        }
        const forces = o.forces?.split(',').map((f) => f.trim()).filter(Boolean);
        if (forces && (!forces.length || forces.some((f) => !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(f)))) {
          throw new ApiError(400, 'usage_error', `sync: --forces takes comma-separated force slugs such as metropolitan,city-of-london, got '${o.forces}'.`);
        }
        const { createProgressReporter } = await import('../sync/progress.js');
        const progress = createProgressReporter({
          stream: ctx.io.stderr as NodeJS.WritableStream,
          tty: ctx.io.stderrIsTTY,
          quiet: g.quiet || Boolean(ctx.env.CI),
          verbose: g.verbose,
        });
        let reports;
        try {
          reports = await fw.runSync(list, {
            env: ctx.env,
            now: () => ctx.now(),
            progress,
            ...(o.from ? { from: o.from } : {}),
            ...(years ? { years } : {}),
            ...scope,
            ...(authorities ? { authorities } : {}),

            ...(forces ? { forces } : {}),
            ...(o.force ? { force: true } : {}),
            ...(o.replace ? { replace: true } : {}),
            ...(o.keepDownloads ? { keepDownloads: true } : {}),
            ...(o.allowShrink ? { allowShrink: true } : {}),
            ...(maxBytesPerSecond ? { maxBytesPerSecond } : {}),
          });
        } catch (e) {
          fail(e);
        }
        const rows = reports.map((r) => ({
          dataset: r.dataset,
          status: r.status,
          mode: r.mode ?? null,
          rows_loaded: r.rows_loaded,
          rows_rejected: r.rows_rejected,
          rows_total: r.rows_total ?? null,
          as_of: r.as_of ?? null,
          seconds: Math.round(r.duration_ms / 100) / 10,
          action: r.action ?? null,
          ...(r.note ? { note: r.note } : {}),
          ...(r.error ? { error: r.error } : {}),
        }));
        if (g.format !== 'table') await writeRows(ctx, g, 'sync', rows);
        else if (!ctx.io.stdoutIsTTY || g.verbose) await writeRows(ctx, { ...g, format: 'table' }, 'sync', rows);
        return reports.some((r) => r.status === 'failed') ? EXIT.ERROR : EXIT.OK;
      }),
    );

  const mirror = program
    .command('mirror')
    .summary('status, location and export of the local mirror')
    .description(helpWithExamples('The local DuckDB mirror.', ['publicdata mirror status', 'publicdata mirror path price-paid', 'publicdata mirror export --format parquet --out ./export price-paid']));
  mirror
    .command('status')
    .description(helpWithExamples('Per dataset: upstream publication date, synced at, rows, size on disk, source, licence, stale or not.', ['publicdata mirror status', 'publicdata mirror status --format json']))
    .argument('[dataset...]', 'datasets (default: all)')
    .action((names: string[], _o: unknown, self: Command) =>
      run(self, async () => {
        const g = globalOptions(self, ctx);
        const datasets = checkDatasets('mirror status', names);
        const { mirrorStatus } = await import('../src/mirror/status.js');
        const rows = await mirrorStatus({ env: ctx.env, now: () => ctx.now(), datasets });
        await writeRows(ctx, g, 'mirror.status', rows as unknown as Row[]);
        return EXIT.OK;
      }),
    );
  mirror
    .command('path')
    .description(helpWithExamples('Print the mirror directory, or one dataset file.', ['publicdata mirror path', 'duckdb "$(publicdata mirror path price-paid)"']))
    .argument('[dataset]', 'a dataset')
    .action((name: string | undefined, _o: unknown, self: Command) =>
      run(self, async () => {
        const info = name === undefined ? undefined : datasetByName(name);
        if (name !== undefined && !info) throw new ApiError(400, 'usage_error', `mirror path: unknown dataset '${name}'.`);
        const { mirrorPath } = await import('../src/mirror/status.js');
        ctx.io.stdout.write(`${mirrorPath(info, { env: ctx.env })}\n`);
        return EXIT.OK;
      }),
    );
  mirror
    .command('export')
    .description(
      helpWithExamples('Export datasets as a Hive-partitioned Parquet lake (or CSV) with manifest.json and DDL for Spark, Trino, BigQuery and DuckDB (docs/export.md).', [
        'publicdata mirror export --format parquet --out ./lake',
        'publicdata mirror export --out ./lake --since ./lake price-paid',
        'publicdata mirror export --out ./lake --location gs://my-bucket/lake',
        'publicdata mirror export --format csv --out ./csv hpi council-tax',
      ]),
    )
    .argument('[dataset...]', 'datasets (default: every synced one)')
    .requiredOption('--out <dir>', 'output directory')
    .option('--since <export>', 'an earlier export (directory or manifest.json): write only the partitions whose rows changed')
    .option('--location <uri>', 'lake root the DDL names, where the files will be read from (default: the --out directory)')
    .action((names: string[], o: { out: string; since?: string; location?: string }, self: Command) =>
      run(self, async () => {
        const fmt = (self.optsWithGlobals() as { format?: string }).format ?? 'parquet';
        if (fmt !== 'parquet' && fmt !== 'csv') throw new ApiError(400, 'usage_error', `mirror export: --format parquet or csv, not '${fmt}'.`);
        checkOutDir(o.out);
        const wanted = checkDatasets('mirror export', names);
        const dir = mirrorDir(ctx.env);
        const missing = wanted.filter((d) => !isDatasetPresent(d, dir)).map((d) => d.name);
        if (names.length ? missing.length : missing.length === CATALOGUE.length) {
          const list = names.length ? missing : [];
          throw new ApiError(
            503,
            'dataset_not_synced',
            list.length ? `mirror export: ${list.join(', ')} not synced yet: run 'publicdata sync ${list.join(' ')}' first.` : "mirror export: nothing is synced yet: run 'publicdata sync <dataset>' first.",
          );
        }
        const { exportMirror, ExportUsageError } = await import('../src/mirror/export.js');
        const { createExportProgress } = await import('../src/mirror/export-progress.js');
        const g = globalOptions(self, ctx, { ignoreFormat: true });
        const progress = createExportProgress({ stream: ctx.io.stderr, tty: !!ctx.io.stderrIsTTY, quiet: g.quiet });
        let out;
        try {
          out = await exportMirror({ env: ctx.env, format: fmt, outDir: o.out, catalogue: CATALOGUE, progress, ...(names.length ? { datasets: names } : {}), ...(o.since ? { since: o.since } : {}), ...(o.location ? { location: o.location } : {}) });
        } catch (e) {
          if (e instanceof ExportUsageError) throw new ApiError(400, 'usage_error', e.message);
          const code = (e as NodeJS.ErrnoException).code;
          if (code && ['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST'].includes(code)) {
            throw new ApiError(400, 'usage_error', `mirror export: cannot write to '${o.out}' (${code}).`);
          }
          throw e;
        }
        // --format names the export's file format here; the report prints as a table on a terminal, else JSON.
        await writeRows(ctx, g, 'mirror.export', out as unknown as Row[]);
        return EXIT.OK;
      }),
    );

  program
    .command('sql')
    .summary('read-only SQL over every synced dataset')
    .description(
      helpWithExamples('Run read-only SQL with every synced dataset attached under its name (price_paid, hpi, ...).', [
        `publicdata sql "SELECT count(*) FROM price_paid.price_paid"`,
        `publicdata sql "SELECT region_name, max(average_price) FROM hpi.hpi GROUP BY 1" --format csv`,
      ]),
    )
    .argument('<query>', 'SQL (one statement)')
    .addOption(
      new Option('--max-rows <n>', 'print at most N rows (a whole number, 1 or more)').argParser((v) => {
        if (!/^\d+$/.test(v.trim()) || Number(v) < 1) throw new InvalidArgumentError('--max-rows takes a whole number of rows, 1 or more.');
        return Number(v);
      }),
    )
    .action((query: string, o: { maxRows?: number }, self: Command) =>
      run(self, async () => {
        const g = globalOptions(self, ctx);
        const { runSql, streamSql, SqlCopyError } = await import('../src/mirror/sql.js');
        const sqlError = (e: unknown) => (e instanceof ApiError ? e : new ApiError(400, 'invalid_parameter', `SQL error: ${(e as Error).message}`));
        const maxRows = o.maxRows !== undefined ? { maxRows: o.maxRows } : {};
        const said = (truncated: boolean | undefined) => {
          if (truncated && !g.quiet) ctx.io.stderr.write(`sql: stopped after --max-rows ${o.maxRows}; the query has more rows\n`);
        };
        if (g.format === 'table') {
          let res;
          try {
            res = await runSql(query, { env: ctx.env, datasets: CATALOGUE, ...maxRows });
          } catch (e) {
            throw sqlError(e);
          }
          await writeRows(ctx, g, 'sql', res.rows, { columns: res.columns, attached: res.attached });
          said(res.truncated);
          return EXIT.OK;
        }
        // json, ndjson, csv: stream chunk by chunk from DuckDB, waiting for stdout to drain (flat memory).
        // json and ndjson without --fields: DuckDB renders the lines (src/mirror/json-sql.ts); ndjson is
        // written by DuckDB itself (COPY to /dev/stdout when that is a pipe, else to a FIFO copied to stdout).
        const w = chunkWriter(ctx, g, 'sql');
        let head: { columns: unknown; attached: string[] } | undefined;
        let done;
        const dbLines = g.format !== 'csv' && !g.fields?.length;
        const copyTo = dbLines && g.format === 'ndjson' ? stdoutPipe(ctx) : undefined;
        const copyOut = dbLines && g.format === 'ndjson' && !copyTo ? { copyOut: ctx.io.stdout } : {};
        try {
          done = await streamSql(query, {
            env: ctx.env, datasets: CATALOGUE, ...maxRows, onStart: (i) => void (head = i), onRows: (rows) => w.rows(rows),
            ...(dbLines ? { onLines: (lines: string[]) => w.lines(lines) } : {}), ...(copyTo ? { copyTo } : copyOut),
          });
        } catch (e) {
          if (e instanceof SqlCopyError && e.direct) {
            // DuckDB writing to a pipe whose reader has gone (`publicdata sql … | head`): end quietly, as a write by node does.
            if (/broken pipe/i.test(e.message) && e.message.includes('/dev/stdout')) return EXIT.OK;
            // DuckDB may have stopped inside a line: the error envelope starts a line of its own
            await drainWrite(ctx.io.stdout, '\n');
          }
          throw sqlError(e);
        }
        await w.end({ columns: head?.columns, attached: head?.attached ?? [] });
        said(done.truncated);
        return EXIT.OK;
      }),
    );
}

/**
 * `/dev/stdout` when stdout is this process's own fd 1 and a pipe, which DuckDB can open and write in
 * order with ours (and does not lock, as it locks other files); undefined otherwise (then DuckDB writes
 * into a FIFO of its own that is copied to stdout). Never a regular file: opening /dev/stdout reopens the
 * file from its start (truncating it), so an appending redirect (`>>`) would lose what was there.
 */
function stdoutPipe(ctx: Context): string | undefined {
  // Linux only: there /dev/stdout opens a new description of the pipe, blocking; on macOS and the BSDs it
  // is a dup of fd 1, which node has made non-blocking, and DuckDB's writes would fail on a full pipe.
  if (process.platform !== 'linux' || (ctx.io.stdout as { fd?: unknown }).fd !== 1) return undefined;
  try {
    return fstatSync(1).isFIFO() ? '/dev/stdout' : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Rows written as they come, in the json, ndjson or csv format, through the same renderers as
 * `writeRows` (so --fields and flattening agree): ndjson is each chunk's lines; csv is the header once,
 * then each chunk's rows; json is `{"data":[` + the rows + `],"meta":…}`. Each write waits for a full
 * stdout to drain.
 */
function chunkWriter(ctx: Context, g: GlobalOptions, id: string) {
  const rc = renderContext(ctx, g);
  const write = (s: string) => drainWrite(ctx.io.stdout, s);
  const render = (rows: Row[], format: 'ndjson' | 'csv') =>
    captureStdout(ctx.io, (io) => writeOutput(io, { envelope: { data: rows, meta: meta() }, id }, { ...rc, format }));
  let n = 0;
  return {
    /** NDJSON lines rendered by DuckDB: the same text `rows` writes for those rows (json: joined by commas). */
    async lines(lines: string[]) {
      if (!lines.length) return;
      if (g.format === 'ndjson') await write(`${lines.join('\n')}\n`);
      else await write(`${n === 0 ? '{"data":[' : ','}${lines.join(',')}`);
      n += lines.length;
    },
    async rows(rows: Row[]) {
      if (!rows.length) return;
      if (g.format === 'ndjson') await write(await render(rows, 'ndjson'));
      else if (g.format === 'csv') {
        const text = await render(rows, 'csv');
        await write(n === 0 ? text : text.slice(text.indexOf('\n') + 1));
      } else {
        const lines = (await render(rows, 'ndjson')).trimEnd().split('\n');
        await write(`${n === 0 ? '{"data":[' : ','}${lines.join(',')}`);
      }
      n += rows.length;
    },
    async end(extraMeta: Record<string, unknown>) {
      if (g.format === 'json') await write(`${n === 0 ? '{"data":[' : ''}],"meta":${JSON.stringify(meta(extraMeta))}}\n`);
      else if (n === 0) await writeRows(ctx, g, id, [], extraMeta);
    },
  };
}
