/**
 * The energy domain's `region` in the shared region vocabulary (issue 37; src/reference/regions.ts): the 14
 * GB electricity regions and the GB average, by code (`north_west`) or by Ofgem's names and labels
 * (data/energy/price-cap.yaml `regions`, `gb_average`), in any case; Great Britain (K03000001) is the GB
 * average (`regions_gss`). ONS regions and countries are not electricity regions and are refused, saying so.
 */
import { regionResolver } from '../../reference/regions.js';
import { priceCapData } from './shipped.js';

export const energyRegion = regionResolver({
  what: 'one of the 14 GB electricity regions of the price cap or gb_average',
  unmatched:
    "is not an electricity region: the cap is set for the 14 electricity distribution regions, which do not follow ONS regions or countries ('publicdata energy regions' lists them)",
  targets: () => {
    const d = priceCapData() as ReturnType<typeof priceCapData> & { regions_gss?: { gb_average?: string[] } };
    return [
      ...d.regions.map((r) => ({ value: r.code, names: [r.name, ...r.labels] })),
      { value: d.gb_average.code, names: [d.gb_average.name, ...d.gb_average.labels], gss: d.regions_gss?.gb_average ?? [] },
    ];
  },
});
