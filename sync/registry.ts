/** Dataset name → its sync module, imported lazily (a sync of one dataset loads only its module). */
import type { DatasetModule, DatasetName } from './types.js';

type Loader = () => Promise<unknown>;

/**
 * Module file per dataset (literal specifiers, so bundlers see every module). Each module's default
 * export, or an export named after the dataset in camelCase (sync/designations.ts: listedBuildings,
 * conservationAreas), is its DatasetModule.
 */
export const SYNC_MODULES: Record<DatasetName, Loader> = {
  'price-paid': () => import('./price-paid.js'),
  hpi: () => import('./hpi.js'),
  'council-tax': () => import('./council-tax.js'),
  'listed-buildings': () => import('./designations.js'),
  'conservation-areas': () => import('./designations.js'),
  'bank-holidays': () => import('./bank-holidays.js'),
};

const camel = (s: string) => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function pick(mod: unknown, name: string): DatasetModule | undefined {
  const m = mod as Record<string, unknown>;
  const isModule = (x: unknown): x is DatasetModule =>
    typeof x === 'object' && x !== null && (x as DatasetModule).name === name && typeof (x as DatasetModule).load === 'function';
  for (const c of [m.default, m[camel(name)], (m.default as Record<string, unknown> | undefined)?.[camel(name)], (m.default as Record<string, unknown> | undefined)?.[name]]) {
    if (isModule(c)) return c;
  }
  return Object.values(m).find(isModule);
}

export const SYNC_DATASETS = Object.keys(SYNC_MODULES) as DatasetName[];

export function isSyncDataset(name: string): name is DatasetName {
  return Object.prototype.hasOwnProperty.call(SYNC_MODULES, name);
}

/** Load a dataset's module; throws a plain Error naming the known datasets for an unknown name. */
export async function loadModule(name: string): Promise<DatasetModule> {
  if (!isSyncDataset(name)) {
    throw new Error(`Unknown dataset '${name}'. Known datasets: ${SYNC_DATASETS.join(', ')}.`);
  }
  const mod = pick(await SYNC_MODULES[name](), name);
  if (!mod) throw new Error(`sync module for '${name}' exports no DatasetModule named '${name}'`);
  return mod;
}
