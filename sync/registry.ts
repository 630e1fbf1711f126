/**
 * Dataset name → its sync module, imported lazily (a sync of one dataset loads only its module).
 * Derived from the registry (src/registry.ts): each domain's manifest lists its datasets.
 */
import { DATASET_ENTRIES } from '../src/registry.js';
import type { DatasetModule } from './types.js';

export const SYNC_MODULES: Readonly<Record<string, () => Promise<DatasetModule>>> = Object.fromEntries(
  DATASET_ENTRIES.map((d) => [d.info.name, d.sync]),
);

export const SYNC_DATASETS: readonly string[] = Object.keys(SYNC_MODULES);

export function isSyncDataset(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(SYNC_MODULES, name);
}

/** Load a dataset's module; throws a plain Error naming the known datasets for an unknown name. */
export async function loadModule(name: string): Promise<DatasetModule> {
  if (!isSyncDataset(name)) {
    throw new Error(`Unknown dataset '${name}'. Known datasets: ${SYNC_DATASETS.join(', ')}.`);
  }
  return SYNC_MODULES[name]!();
}
