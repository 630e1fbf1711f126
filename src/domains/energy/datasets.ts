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
  export: {
    tables: [
      { name: 'rates', description: 'one row per period, region, fuel, payment method and meter: unit rate and standing charge, incl. and excl. VAT', sortBy: ['period_id', 'region_code', 'fuel', 'payment_method', 'meter'] },
      { name: 'levels', description: 'every nil and benchmark level as the workbook states it (pounds a year, VAT basis, sheet and cell)', sortBy: ['period_id', 'region_code', 'fuel', 'payment_method', 'meter', 'kwh'] },
      { name: 'periods', description: 'one row per cap period: id, start and end date, label', sortBy: ['period_id'] },
    ],
  },
};
