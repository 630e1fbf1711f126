/** The property domain's mirror datasets (catalogue entries; see src/mirror/catalog.ts for the fields). */
import { OGL } from '../../contract/types.js';
import type { DatasetInfo } from '../../mirror/catalog.js';

const HMLR_ATTRIBUTION =
  'Contains HM Land Registry data © Crown copyright and database right {year}. This data is licensed under the Open Government Licence v3.0.';

export const PRICE_PAID_INFO: DatasetInfo = {
  name: 'price-paid',
  title: 'HM Land Registry Price Paid Data (England and Wales, 1995 to date)',
  file: 'price_paid.duckdb',
  schema: 'price_paid',
  publisher: 'HM Land Registry',
  sourceUrl: 'https://www.gov.uk/government/collections/price-paid-data',
  licence: OGL,
  attribution:
    HMLR_ATTRIBUTION +
    ' Address data also subject to Royal Mail and Ordnance Survey copyright and database right.',
  approxDownload: '5 GB',
  cadence: 'monthly',
  // Published around the 20th working day of each month: stale once more than ~6 weeks old.
  staleAfterDays: 45,
  dateScope: [
    {
      name: 'years',
      description: 'the yearly files instead of the complete file',
      example: '2020-2025',
      // HM Land Registry's data starts in January 1995
      firstYear: { year: 1995, what: 'price paid data starts in 1995' },
      // --years picks the yearly files discovery fetches: with a --from file it would be ignored (usage error)
      discoveryOnly: true,
    },
  ],
  export: {
    tables: [
      {
        name: 'price_paid',
        description: 'one row per registered sale (transaction id, price in pounds, date, address, property type, tenure, category)',
        partitionBy: [{ column: 'year', expr: 'CAST(year(date) AS INTEGER)' }],
        // The load sorts the table on postcode (sync/price-paid.ts): each year's file keeps that order.
        sortBy: ['postcode'],
        stored: true,
      },
    ],
  },
};

export const HPI_INFO: DatasetInfo = {
  name: 'hpi',
  title: 'UK House Price Index',
  file: 'hpi.duckdb',
  schema: 'hpi',
  publisher: 'HM Land Registry',
  sourceUrl: 'https://www.gov.uk/government/collections/uk-house-price-index-reports',
  licence: OGL,
  attribution: HMLR_ATTRIBUTION,
  approxDownload: '60 MB',
  cadence: 'monthly',
  staleAfterDays: 45,
  export: {
    tables: [{ name: 'hpi', description: 'one row per region and month: index, average prices and sales volumes', sortBy: ['region_code', 'date'], stored: true }],
  },
};

export const COUNCIL_TAX_INFO: DatasetInfo = {
  name: 'council-tax',
  title: 'Council Tax levels set by local authorities in England',
  file: 'council_tax.duckdb',
  schema: 'council_tax',
  publisher: 'Ministry of Housing, Communities and Local Government',
  sourceUrl: 'https://www.gov.uk/government/collections/council-tax-statistics',
  licence: OGL,
  attribution: 'Contains public sector information licensed under the Open Government Licence v3.0.',
  approxDownload: '1 MB',
  cadence: 'yearly',
  staleAfterDays: 400,
  export: {
    tables: [{ name: 'council_tax', description: 'one row per billing authority, financial year and band: the annual amount in pounds', sortBy: ['authority_code', 'financial_year', 'band'] }],
  },
};

export const LISTED_BUILDINGS_INFO: DatasetInfo = {
  name: 'listed-buildings',
  title: 'Listed buildings (planning.data.gov.uk)',
  file: 'listed_buildings.duckdb',
  schema: 'listed_buildings',
  publisher: 'Ministry of Housing, Communities and Local Government',
  sourceUrl: 'https://www.planning.data.gov.uk/dataset/listed-building',
  licence: OGL,
  attribution:
    'Contains public sector information licensed under the Open Government Licence v3.0. Listed building data © Historic England.',
  approxDownload: '250 MB',
  cadence: 'weekly',
  staleAfterDays: 30,
  export: {
    tables: [{ name: 'designations', description: 'one row per designated entity (planning.data.gov.uk): name, reference, point, dates', sortBy: ['entity_id'] }],
  },
};

export const CONSERVATION_AREAS_INFO: DatasetInfo = {
  name: 'conservation-areas',
  title: 'Conservation areas (planning.data.gov.uk)',
  file: 'conservation_areas.duckdb',
  schema: 'conservation_areas',
  publisher: 'Ministry of Housing, Communities and Local Government',
  sourceUrl: 'https://www.planning.data.gov.uk/dataset/conservation-area',
  licence: OGL,
  attribution: 'Contains public sector information licensed under the Open Government Licence v3.0.',
  approxDownload: '40 MB',
  cadence: 'weekly',
  staleAfterDays: 30,
  export: {
    tables: [{ name: 'designations', description: 'one row per designated entity (planning.data.gov.uk): name, reference, point, dates', sortBy: ['entity_id'] }],
  },
};
