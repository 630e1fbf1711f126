/** A dataset's catalogue entry by name (the registry's catalogue), for tests that open mirror files. */
import { datasetByName } from '../../src/registry.js';
import type { DatasetInfo } from '../../src/mirror/catalog.js';

export function ds(name: string): DatasetInfo {
  const d = datasetByName(name);
  if (!d) throw new Error(`no dataset '${name}' in the registry`);
  return d;
}
