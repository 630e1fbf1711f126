/**
 * The facts of every mirror dataset (file, publisher, licence, size, cadence), by domain: the union of the
 * domains' pure `datasets.ts` files, in registry order. src/mirror/catalog.ts reads this list, not the
 * registry: the registry's manifests import their handlers (lazily), and the handlers read the catalogue,
 * so a catalogue derived from the registry would close an import loop through every handler. These files
 * hold data only. A dataset added to a domain's datasets.ts is picked up here; a new domain with datasets
 * adds one line below as well as its line in src/registry.ts (test/cli/registry.test.ts checks that this
 * list and the manifests' datasets agree).
 */
import type { DatasetInfo } from '../mirror/catalog.js';
import * as property from './property/datasets.js';
import * as companies from './companies/datasets.js';
import * as vehicles from './vehicles/datasets.js';
import * as traffic from './vehicles/traffic-datasets.js';
import * as calendar from './calendar/datasets.js';
import * as crime from './crime/datasets.js';

const isInfo = (v: unknown): v is DatasetInfo =>
  typeof v === 'object' && v !== null && typeof (v as DatasetInfo).file === 'string' && typeof (v as DatasetInfo).schema === 'string';

export const DATASET_INFOS: readonly DatasetInfo[] = [property, companies, vehicles, traffic, calendar, crime].flatMap((m) =>
  Object.values(m).filter(isInfo),
);
