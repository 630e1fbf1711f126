/** `publicdata mirror status|path|export`: what the local mirror holds, where, and the Parquet lake. */
import { Command } from 'commander';
import { ApiError, EXIT } from '../src/contract/errors.js';
import type { Context } from '../src/context.js';
import type { Row } from '../src/output/records.js';
import { existsSync, statSync } from 'node:fs';
import { DATASETS as CATALOGUE, datasetByName } from '../src/registry.js';
import { isDatasetPresent, mirrorDir } from '../src/mirror/paths.js';
import { globalOptions } from './global.js';
import { helpWithExamples } from './route-command.js';
import { checkDatasets, commandRunner, writeRows } from './mirror-common.js';

/** `--out` of mirror export: a directory that exists or can be made; never a file, never ''. */
function checkOutDir(out: string): void {
  if (out.trim() === '') throw new ApiError(400, 'usage_error', "mirror export: --out needs a directory (got '').");
  if (existsSync(out) && !statSync(out).isDirectory()) throw new ApiError(400, 'usage_error', `mirror export: --out '${out}' exists and is not a directory.`);
}

export function registerMirror(program: Command, ctx: Context): void {
  const run = commandRunner(ctx);
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
}
