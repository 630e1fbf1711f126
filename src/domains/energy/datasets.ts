/** The energy domain's mirror dataset (catalogue entry; see src/mirror/catalog.ts for the fields). */
import type { DatasetInfo } from '../../mirror/catalog.js';

export const ENERGY_PRICE_CAP_INFO: DatasetInfo = {
  name: 'energy-price-cap',
  title: 'Energy price cap levels by region, payment method and meter (Ofgem levels model)',
  file: 'energy_price_cap.duckdb',
  schema: 'energy_price_cap',
  publisher: 'Ofgem',
  sourceUrl:
    'https://www.ofgem.gov.uk/energy-regulation/domestic-and-non-domestic/energy-pricing-rules/energy-price-cap/energy-price-cap-default-tariff-levels',
  licence: 'Open Government Licence v3.0',
  attribution: 'Contains Ofgem information licensed under the Open Government Licence v3.0.',
  approxDownload: '5 MB',
  cadence: 'quarterly',
  staleAfterDays: 100,
};
