/** Dataset name → its sync module, imported lazily (a sync of one dataset loads only its module). */
import type { DatasetModule, DatasetName } from './types.js';

/** Module per dataset (literal specifiers, so bundlers see every module). */
export const SYNC_MODULES: Record<DatasetName, () => Promise<DatasetModule>> = {
  'price-paid': () => import('./price-paid.js').then((m) => m.pricePaid),
  hpi: () => import('./hpi.js').then((m) => m.hpi),
  'council-tax': () => import('./council-tax.js').then((m) => m.councilTax),
  'listed-buildings': () => import('./designations.js').then((m) => m.listedBuildings),
  'conservation-areas': () => import('./designations.js').then((m) => m.conservationAreas),
  'bank-holidays': () => import('./bank-holidays.js').then((m) => m.bankHolidays),
};

export const SYNC_DATASETS = Object.keys(SYNC_MODULES) as DatasetName[];

export function isSyncDataset(name: string): name is DatasetName {
  return Object.prototype.hasOwnProperty.call(SYNC_MODULES, name);
}

/** Load a dataset's module; throws a plain Error naming the known datasets for an unknown name. */
export async function loadModule(name: string): Promise<DatasetModule> {
  if (!isSyncDataset(name)) {
    throw new Error(`Unknown dataset '${name}'. Known datasets: ${SYNC_DATASETS.join(', ')}.`);
  }
  return SYNC_MODULES[name]();
}
