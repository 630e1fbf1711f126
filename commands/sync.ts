/** `publicdata sync`: download and load datasets into the mirror (sync/framework.ts; docs/mirror.md). */
import { Command, Option } from 'commander';
import { ApiError, EXIT } from '../src/contract/errors.js';
import type { Context } from '../src/context.js';
import { SYNC_DATASETS } from '../sync/registry.js';
import { globalOptions } from './global.js';
import { parseRateOption, parseYearsOption } from './sync-options.js';
import { helpWithExamples } from './route-command.js';
import { commandRunner, writeRows } from './mirror-common.js';
import { DATASETS as CATALOGUE } from '../src/registry.js';
import type { SyncListOption } from '../src/mirror/catalog.js';

/** Every dataset with a sync module (the registry imports none of them until used). */
const DATASETS: readonly string[] = SYNC_DATASETS;

function fail(e: unknown): never {
  if (e instanceof ApiError) throw e;
  const err = e as Error & { dataset?: string };
  throw new ApiError(500, 'sync_failed', err?.message ?? String(e));
}

/** The datasets' own narrowing options (DatasetInfo.syncLists), once each. */
const LIST_OPTIONS: readonly SyncListOption[] = [...new Map(CATALOGUE.flatMap((d) => d.syncLists ?? []).map((l) => [l.name, l])).values()];

/** The lists given with the datasets' own options, each checked item by item (usage error, exit 2). */
function syncLists(o: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const l of LIST_OPTIONS) {
    const raw = o[new Option(`--${l.name} <${l.placeholder}>`).attributeName()];
    if (raw === undefined) continue;
    const items = String(raw).split(',').map((x) => x.trim()).filter(Boolean);
    const re = new RegExp(`^(?:${l.item})$`);
    if (!items.length || items.some((x) => !re.test(x))) throw new ApiError(400, 'usage_error', `sync: --${l.name} takes ${l.example}, got '${String(raw)}'.`);
    out[l.name] = items;
  }
  return out;
}

/**
 * A dataset's discovery-only options (DatasetInfo.discoveryOptions) with a `--from` file or folder: a usage
 * error, since discovery does not run and the option would be ignored. A URL prefix ending in `/` (not a
 * file: URL) runs discovery (sync/stage-helpers.ts expandFrom), so it takes them.
 */
function discoveryOnlyWithFrom(name: string, o: { from?: string[]; years?: string; days?: string; months?: string }): void {
  const files = (o.from ?? []).filter((f) => !(/^[a-z][a-z0-9+.-]*:\/\//i.test(f) && !/^file:/i.test(f) && f.endsWith('/')));
  if (!files.length) return;
  for (const k of CATALOGUE.find((d) => d.name === name)?.discoveryOptions ?? []) {
    if (o[k] === undefined) continue;
    throw new ApiError(
      400,
      'usage_error',
      `sync ${name}: --${k} chooses the files discovery fetches, and --from loads exactly the files given (${files.join(', ')}); give the files you want with --from, or drop --from.`,
    );
  }
}

export function registerSync(program: Command, ctx: Context): void {
  const run = commandRunner(ctx);
  const cmd = program
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
    .option('--check', 'ask each publisher what is newest (no download): what the mirror holds, what is published, whether a sync would change it; exit 0 nothing newer, 1 something newer')
    .option('--from <file-or-url>', 'use this file, folder or URL (prefix ending in /) instead of discovering the upstream files; repeatable', (v: string, prev: string[] = []) => [...prev, v])
    .option('--years <from-to>', 'price-paid yearly files; road-safety years (default 2021 to the latest final year); e.g. 2020-2025')
    .option('--days <n>', 'accounts: the daily zips of the last N days (quick start: --days 30)')
    .option('--months <n>', 'accounts: the last N months (default 12; 60 matches the live five years); crime: the newest N months of the archive (default 12)')
    .option('--force', 'full reload even when up to date (or when an update could be applied); with --from, replaces instead of adding')
    .option('--replace', 'with --from: replace the data of a dataset that accumulates (accounts zips, MOT years, price-paid yearly files) instead of adding to it')
    .option('--keep-downloads', 'keep the downloaded files in the cache (default: removed once loaded and verified)')
    .option('--allow-shrink', 'accept a full reload of the same file(s) with more than 10% fewer rows than before')
    .option('--limit-rate <rate>', 'cap the download bandwidth, bytes per second (e.g. 500k, 2M)');
  for (const l of LIST_OPTIONS) cmd.option(`--${l.name} <${l.placeholder}>`, l.description);
  cmd
    .action((names: string[], o: {
      all?: boolean; from?: string[]; years?: string; days?: string; months?: string; force?: boolean; limitRate?: string;
      replace?: boolean; keepDownloads?: boolean; allowShrink?: boolean; check?: boolean;
    }, self: Command) =>
      run(self, async () => {
        const g = globalOptions(self, ctx);
        // --check: every dataset when none is named (commands/sync-check.ts)
        const list = o.all || (o.check && names.length === 0) ? [...DATASETS] : names;
        if (list.length === 0) throw new ApiError(400, 'usage_error', `sync: name one or more datasets (${DATASETS.join(', ')}) or --all.`);
        const unknown = list.filter((n) => !DATASETS.includes(n));
        if (unknown.length) throw new ApiError(400, 'usage_error', `sync: unknown dataset ${unknown.map((u) => `'${u}'`).join(', ')}. Datasets: ${DATASETS.join(', ')}.`);
        if (o.check) return (await import('./sync-check.js')).syncCheck(ctx, g, list, o);
        if (o.from && list.length !== 1) throw new ApiError(400, 'usage_error', 'sync: --from takes exactly one dataset.');
        if (o.replace && !o.from) throw new ApiError(400, 'usage_error', 'sync: --replace goes with --from (it says whether the file replaces the data or is added to it).');
        discoveryOnlyWithFrom(list[0]!, o);
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
        const lists = syncLists(o as Record<string, unknown>);
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
            ...(Object.keys(lists).length ? { lists } : {}),
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
