/**
 * The sync runner: a dataset's module by name, run through the sync framework's pipeline
 * (sync/framework.ts `syncModule`). It sits at the execution layer beside the registry, as `execute` picks
 * a handler: the framework below it is handed a module and imports no registry and no domain. The module
 * loader is injected (`createSyncRunner`); the runner the CLI and the tests use reads the registry's
 * datasets (`DATASET_ENTRIES`), each module imported lazily (a sync of one dataset loads only its module),
 * and the pipeline itself when a sync runs.
 */
import type { RunSyncOptions } from '../sync/framework.js';
import type { DatasetModule, SyncReport } from '../sync/types.js';
import { DATASET_ENTRIES, loadDomains } from './registry.js';

export type { RunSyncOptions };

/** Dataset name -> its module, imported when first asked for. */
export type ModuleLoaders = Readonly<Record<string, () => Promise<DatasetModule>>>;

export interface SyncRunner {
  /** Every dataset the runner can sync, in the loaders' order. */
  readonly datasets: readonly string[];
  isSyncDataset(name: string): boolean;
  /** A dataset's module; throws a plain Error naming the known datasets for an unknown name. */
  loadModule(name: string): Promise<DatasetModule>;
  /** Sync one dataset. Never leaves a half-written live file; throws SyncError on failure. */
  syncDataset(name: string, opts: RunSyncOptions): Promise<SyncReport>;
  /** Sync several datasets (none named: every one) one after another; a failure of one does not stop the others. */
  runSync(names: readonly string[], opts: RunSyncOptions): Promise<SyncReport[]>;
}

/** A runner over the modules `loaders` gives. */
export function createSyncRunner(loaders: ModuleLoaders): SyncRunner {
  const datasets = Object.keys(loaders);
  const isSyncDataset = (name: string) => Object.prototype.hasOwnProperty.call(loaders, name);
  const loadModule = async (name: string) => {
    if (!isSyncDataset(name)) throw new Error(`Unknown dataset '${name}'. Known datasets: ${datasets.join(', ')}.`);
    return loaders[name]!();
  };
  const syncDataset = async (name: string, opts: RunSyncOptions) => {
    const mod = await loadModule(name);
    // the pipeline (DuckDB, undici) loads when a sync runs, not when the command line is read
    const { syncModule } = await import('../sync/framework.js');
    return syncModule(mod, opts);
  };
  const runSync = async (names: readonly string[], opts: RunSyncOptions) => {
    const reports: SyncReport[] = [];
    for (const name of names.length ? names : datasets) {
      try {
        reports.push(await syncDataset(name, opts));
      } catch (e) {
        reports.push({
          dataset: name, status: 'failed', rows_loaded: 0, rows_rejected: 0, bytes_downloaded: 0, duration_ms: 0,
          files: [], error: (e as Error).message,
        });
      }
    }
    return reports;
  };
  return { datasets, isSyncDataset, loadModule, syncDataset, runSync };
}

/** The runner over the registry's datasets: of the domains loaded, remade when more have loaded. */
let runner: SyncRunner | undefined;
function current(): SyncRunner {
  if (!runner || runner.datasets.length !== DATASET_ENTRIES.length) runner = createSyncRunner(Object.fromEntries(DATASET_ENTRIES.map((d) => [d.info.name, d.sync])));
  return runner;
}

/**
 * Every dataset of the domains loaded now (the CLI's `sync` and `completion` load every domain first;
 * src/registry.ts). The functions below load every domain themselves.
 */
export const syncDatasets = (): readonly string[] => current().datasets;
export const isSyncDataset = (name: string): boolean => current().isSyncDataset(name);
export const loadModule = async (name: string): Promise<DatasetModule> => {
  await loadDomains();
  return current().loadModule(name);
};
export const syncDataset = async (name: string, opts: RunSyncOptions): Promise<SyncReport> => {
  await loadDomains();
  return current().syncDataset(name, opts);
};
export const runSync = async (names: readonly string[], opts: RunSyncOptions): Promise<SyncReport[]> => {
  await loadDomains();
  return current().runSync(names, opts);
};
