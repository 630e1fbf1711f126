/** What the mirror commands (`sync`, `mirror`, `sql`) share: their runner, output of rows, dataset names. */
import type { Command } from 'commander';
import { ApiError } from '../src/contract/errors.js';
import { meta } from '../src/contract/envelope.js';
import type { Context } from '../src/context.js';
import { printError, renderContext, type GlobalOptions } from '../src/invoke.js';
import type { Row } from '../src/output/records.js';
import { writeOutput } from '../src/output/renderers.js';
import { DATASETS as CATALOGUE, datasetByName } from '../src/registry.js';
import type { DatasetInfo } from '../src/mirror/catalog.js';
import { globalOptions } from './global.js';
import { setExit } from './route-command.js';

/** Write command rows (sync report, status, sql result, export report) through the renderer registry. */
export async function writeRows(ctx: Context, g: GlobalOptions, id: string, rows: Row[], extraMeta: Record<string, unknown> = {}): Promise<void> {
  await writeOutput(ctx.io, { envelope: { data: rows, meta: meta(extraMeta) }, id }, renderContext(ctx, g));
}

/** Dataset names given to `mirror status|export`: each must be in the catalogue (usage error, exit 2). */
export function checkDatasets(command: string, names: readonly string[]): DatasetInfo[] {
  const unknown = names.filter((n) => !datasetByName(n));
  if (unknown.length) throw new ApiError(400, 'usage_error', `${command}: unknown dataset ${unknown.map((u) => `'${u}'`).join(', ')}. Datasets: ${CATALOGUE.map((d) => d.name).join(', ')}.`);
  return names.length ? names.map((n) => datasetByName(n)!) : [...CATALOGUE];
}

/** A command's action: sets its exit code, or prints its ApiError as the error envelope. */
export type CommandRunner = (self: Command, fn: () => Promise<number>) => Promise<void>;

export function commandRunner(ctx: Context): CommandRunner {
  return async (self, fn) => {
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
}
