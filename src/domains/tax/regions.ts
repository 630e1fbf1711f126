/**
 * The tax domain's `region` in the shared region vocabulary (issue 37; src/reference/regions.ts): the two
 * income tax regions, `england_wales_ni` and `scotland`, by slug or by the ONS country or English region a
 * person lives in (name or GSS code, any case), as data/tax/regions.yaml maps them. The United Kingdom
 * and Great Britain hold both regions and are refused, saying so.
 */
import { loadData } from '../../data.js';
import { regionResolver, type RegionTarget } from '../../reference/regions.js';

export const taxRegionResolver = regionResolver({
  what: "an income tax region (england_wales_ni or scotland)",
  unmatched: 'holds both income tax regions (england_wales_ni and scotland): name the country or region',
  targets: () => loadData<{ regions: RegionTarget[] }>('tax/regions').regions,
});
