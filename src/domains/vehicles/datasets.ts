/** The vehicles domain's mirror datasets (catalogue entries; see src/mirror/catalog.ts for the fields). */
import { OGL } from '../../contract/types.js';
import type { DatasetInfo } from '../../mirror/catalog.js';

export const VEHICLE_LICENSING_INFO: DatasetInfo = {
  name: 'vehicle-licensing',
  title: 'DfT vehicle licensing statistics: licensed vehicles (VEH0120) and first registrations (VEH0160), GB and UK',
  file: 'vehicle_licensing.duckdb',
  schema: 'vehicle_licensing',
  publisher: 'Department for Transport',
  sourceUrl: 'https://www.gov.uk/government/statistical-data-sets/vehicle-licensing-statistics-data-files',
  licence: OGL,
  attribution:
    'Contains public sector information licensed under the Open Government Licence v3.0 (Department for Transport and DVLA vehicle licensing statistics).',
  approxDownload: '200 MB',
  cadence: 'quarterly',
  // Published quarterly: stale once more than ~4 months old.
  staleAfterDays: 120,
};

export const MOT_INFO: DatasetInfo = {
  name: 'mot',
  title: 'DVSA anonymised MOT test results and failure items',
  file: 'mot.duckdb',
  schema: 'mot',
  publisher: 'Driver and Vehicle Standards Agency',
  // DVSA's current publication page (the files were listed on data.gov.uk before)
  sourceUrl: 'https://open.data.dvsa.gov.uk/mot-anonymised/',
  licence: OGL,
  attribution:
    'Contains public sector information licensed under the Open Government Licence v3.0 (Driver and Vehicle Standards Agency anonymised MOT data).',
  approxDownload: '8.6 GB a test year',
  cadence: 'yearly',
  staleAfterDays: 400,
};
