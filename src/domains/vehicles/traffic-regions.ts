/**
 * The road-traffic routes' `region` in the shared region vocabulary (issue 37; src/reference/regions.ts):
 * DfT's eleven regions by name, slug or ONS GSS code (data/vehicles/traffic-regions.yaml), sent as DfT's
 * region name; any other text is a substring of the region name, as before.
 */
import { loadData } from '../../data.js';
import { regionResolver, type RegionTarget } from '../../reference/regions.js';

export const trafficRegion = regionResolver({
  what: "one of DfT's road traffic regions",
  unmatched: "is not one of DfT's road traffic regions (the nine English regions, Wales and Scotland)",
  targets: () => loadData<{ regions: RegionTarget[] }>('vehicles/traffic-regions').regions,
  passThrough: () => true,
});
