/** `publicdata sync`: download and load datasets into the mirror (sync/framework.ts; docs/mirror.md). */
import { Command } from 'commander';
import { ApiError, EXIT } from '../src/contract/errors.js';
import type { Context } from '../src/context.js';
import { SYNC_DATASETS } from '../sync/registry.js';
import { globalOptions } from './global.js';
import { parseRateOption, parseYearsOption } from './sync-options.js';
import { helpWithExamples } from './route-command.js';
import { commandRunner, writeRows } from './mirror-common.js';

/** Every dataset with a sync module (the registry imports none of them until used). */
const DATASETS: readonly string[] = SYNC_DATASETS;

function fail(e: unknown): never {
  if (e instanceof ApiError) throw e;
  const err = e as Error & { dataset?: string };
  throw new ApiError(500, 'sync_failed', err?.message ?? String(e));
}

export function registerSync(program: Command, ctx: Context): void {
  const run = commandRunner(ctx);
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
}
