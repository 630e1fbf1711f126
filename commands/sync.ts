/** `publicdata sync`: download and load datasets into the mirror (src/sync-runner.ts, sync/framework.ts; docs/mirror.md). */
import { Command, Option } from 'commander';
import { ApiError, EXIT } from '../src/contract/errors.js';
import type { Context } from '../src/context.js';
// the dataset lists are read when the command is registered and run, after the CLI loaded every domain (src/cli.ts)
import { syncDatasets } from '../src/sync-runner.js';
import { globalOptions } from './global.js';
import { discoveryOnlyOptions, parseRateOption, parseScopeOptions, scopeExamples, scopeOptions } from './sync-options.js';
import { helpWithExamples } from './route-command.js';
import { commandRunner, writeRows } from './mirror-common.js';
import { DATASETS as CATALOGUE } from '../src/registry.js';
import type { SyncListOption } from '../src/mirror/catalog.js';

function fail(e: unknown): never {
  if (e instanceof ApiError) throw e;
  const err = e as Error & { dataset?: string };
  throw new ApiError(500, 'sync_failed', err?.message ?? String(e));
}

/** The datasets' own narrowing options (DatasetInfo.syncLists), once each. */
const listOptions = (): readonly SyncListOption[] => [...new Map(CATALOGUE.flatMap((d) => d.syncLists ?? []).map((l) => [l.name, l])).values()];

/** The lists given with the datasets' own options, each checked item by item (usage error, exit 2). */
function syncLists(o: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const l of listOptions()) {
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
 * A dataset's discovery-only options (DatasetInfo.dateScope `discoveryOnly`) with a `--from` file or folder: a usage
 * error, since discovery does not run and the option would be ignored. A URL prefix ending in `/` (not a
 * file: URL) runs discovery (sync/stage-helpers.ts expandFrom), so it takes them.
 */
function discoveryOnlyWithFrom(name: string, o: { from?: string[]; years?: string; days?: string; months?: string }): void {
  const files = (o.from ?? []).filter((f) => !(/^[a-z][a-z0-9+.-]*:\/\//i.test(f) && !/^file:/i.test(f) && f.endsWith('/')));
  if (!files.length) return;
  for (const k of discoveryOnlyOptions(name)) {
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
        `Sync datasets into the mirror: discover the current upstream file, download (resumable), load into a new\nDuckDB file, verify, and swap it in atomically. Datasets: ${syncDatasets().join(', ')}.`,
        [...scopeExamples(), 'publicdata sync <dataset> --from <downloaded-file>', 'publicdata sync --all'],
      ),
    )
    .argument('[dataset...]', syncDatasets().join(', '))
    .option('--all', 'every dataset')
    .option('--check', 'ask each publisher what is newest (no download): what the mirror holds, what is published, whether a sync would change it; exit 0 nothing newer, 1 something newer')
    .option('--from <file-or-url>', 'use this file, folder or URL (prefix ending in /) instead of discovering the upstream files; repeatable', (v: string, prev: string[] = []) => [...prev, v])
    .option('--force', 'full reload even when up to date (or when an update could be applied); with --from, replaces instead of adding')
    .option('--replace', 'with --from: replace the data of a dataset that accumulates (a --from file is added to what it holds: daily zips, yearly files) instead of adding to it')
    .option('--keep-downloads', 'keep the downloaded files in the cache (default: removed once loaded and verified)')
    .option('--allow-shrink', 'accept more than 10% fewer rows than the mirror held: in a unit a file replaces (a force-month, a register, an authority, an edition), whatever the file is called, or in a full reload of the same file(s)')
    .option('--limit-rate <rate>', 'cap the download bandwidth, bytes per second (e.g. 500k, 2M)');
  for (const s of scopeOptions()) cmd.option(s.flags, s.description);
  for (const l of listOptions()) cmd.option(`--${l.name} <${l.placeholder}>`, l.description);
  cmd
    .action((names: string[], o: {
      all?: boolean; from?: string[]; years?: string; days?: string; months?: string; force?: boolean; limitRate?: string;
      replace?: boolean; keepDownloads?: boolean; allowShrink?: boolean; check?: boolean;
    }, self: Command) =>
      run(self, async () => {
        const g = globalOptions(self, ctx);
        // --check: every dataset when none is named (commands/sync-check.ts)
        const list = o.all || (o.check && names.length === 0) ? [...syncDatasets()] : names;
        if (list.length === 0) throw new ApiError(400, 'usage_error', `sync: name one or more datasets (${syncDatasets().join(', ')}) or --all.`);
        const unknown = list.filter((n) => !syncDatasets().includes(n));
        if (unknown.length) throw new ApiError(400, 'usage_error', `sync: unknown dataset ${unknown.map((u) => `'${u}'`).join(', ')}. Datasets: ${syncDatasets().join(', ')}.`);
        if (o.check) return (await import('./sync-check.js')).syncCheck(ctx, g, list, o);
        if (o.from && list.length !== 1) throw new ApiError(400, 'usage_error', 'sync: --from takes exactly one dataset.');
        if (o.replace && !o.from) throw new ApiError(400, 'usage_error', 'sync: --replace goes with --from (it says whether the file replaces the data or is added to it).');
        discoveryOnlyWithFrom(list[0]!, o);
        const { runSync } = await import('../src/sync-runner.js');
        let maxBytesPerSecond: number | undefined;
        if (o.limitRate !== undefined) {
          try {
            maxBytesPerSecond = parseRateOption(o.limitRate);
          } catch (e) {
            throw new ApiError(400, 'usage_error', (e as Error).message);
          }
        }
        const scope = parseScopeOptions(o, list);
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
          reports = await runSync(list, {
            env: ctx.env,
            now: () => ctx.now(),
            progress,
            ...(o.from ? { from: o.from } : {}),
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
