/** `publicdata sql`: one read-only statement over every synced dataset, streamed (src/mirror/sql.ts). */
import { Command, InvalidArgumentError, Option } from 'commander';
import { ApiError, EXIT } from '../src/contract/errors.js';
import { meta } from '../src/contract/envelope.js';
import type { Context } from '../src/context.js';
import { renderContext, type GlobalOptions } from '../src/invoke.js';
import type { Row } from '../src/output/records.js';
import { captureStdout, chunkStream, drainWrite, writeOutput } from '../src/output/renderers.js';
import { fstatSync } from 'node:fs';
import { DATASETS as CATALOGUE } from '../src/registry.js';
import { globalOptions } from './global.js';
import { helpWithExamples } from './route-command.js';
import { commandRunner, writeRows } from './mirror-common.js';

export function registerSql(program: Command, ctx: Context): void {
  const run = commandRunner(ctx);
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
 * `writeRows` (so --fields and flattening agree). ndjson and csv go through the one chunk stream shared
 * with `--all` (`chunkStream`: the CSV header once); json is `{"data":[` + the rows + `],"meta":…}`.
 * Each write waits for a full stdout to drain.
 */
function chunkWriter(ctx: Context, g: GlobalOptions, id: string) {
  const rc = renderContext(ctx, g);
  const write = (s: string) => drainWrite(ctx.io.stdout, s);
  const render = (rows: unknown[], format: 'ndjson' | 'csv', continuation = false) =>
    captureStdout(ctx.io, (io) => writeOutput(io, { envelope: { data: rows, meta: meta() }, id }, { ...rc, format, continuation }));
  const stream = g.format === 'ndjson' || g.format === 'csv' ? chunkStream(ctx.io.stdout, g.format, (rows, continuation) => render(rows, g.format as 'ndjson' | 'csv', continuation)) : undefined;
  let n = 0;
  return {
    /** NDJSON lines rendered by DuckDB: the same text `rows` writes for those rows (json: joined by commas). */
    async lines(lines: string[]) {
      if (!lines.length) return;
      if (stream) await stream.rendered(`${lines.join('\n')}\n`, []);
      else await write(`${n === 0 ? '{"data":[' : ','}${lines.join(',')}`);
      n += lines.length;
    },
    async rows(rows: Row[]) {
      if (!rows.length) return;
      if (stream) await stream.records(rows);
      else {
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
