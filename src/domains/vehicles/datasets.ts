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
  export: {
    // The mirror stores each table as series (the descriptive columns once) and counts (series_id, quarter,
    // count); the lake holds the join, so make, model and fuel are on every row (dictionary-encoded in Parquet).
    tables: [
      {
        name: 'licensing',
        description: 'VEH0120: vehicles licensed or SORN at a quarter end, by geography, licence status, body type, make, model and fuel',
        select: 'SELECT s.geography, c.quarter, s.licence_status, s.body_type, s.make, s.generic_model, s.model, s.fuel, c.count FROM licensing_counts c JOIN licensing_series s USING (series_id)',
        sortBy: ['make', 'generic_model', 'model', 'quarter'],
      },
      {
        name: 'registrations',
        description: 'VEH0160: first registrations in a quarter, by geography, body type, make, model and fuel',
        select: 'SELECT s.geography, c.quarter, s.body_type, s.make, s.generic_model, s.model, s.fuel, c.count FROM registrations_counts c JOIN registrations_series s USING (series_id)',
        sortBy: ['make', 'generic_model', 'model', 'quarter'],
      },
      { name: 'coverage', description: 'quarters held per table and geography', sortBy: ['dataset', 'geography'] },
    ],
  },
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
  dateScope: [
    {
      name: 'years',
      description: 'the test years',
      // sync/mot.ts discover: the newest year listed
      default: 'the newest',
      // DVSA's first anonymised test year (test_result_2005.txt.gz)
      firstYear: { year: 2005, what: 'MOT test data starts in 2005' },
      // --years picks the yearly files discovery fetches: with a --from file it would be ignored (usage error)
      discoveryOnly: true,
    },
  ],
  export: {
    tables: [
      {
        name: 'mot_tests',
        description: 'one row per MOT test: date, class, type, result, mileage, postcode area, make, model, colour, fuel, first use',
        partitionBy: [{ column: 'test_year', expr: 'test_year' }],
        // The load orders mot_tests on test_year, make, model, test_date, test_id (sync/mot.ts).
        sortBy: ['make', 'model', 'test_date'],
        stored: true,
      },
      {
        name: 'mot_failures',
        description: 'failure and advisory items by test year, make, model, item type and defect (DVSA item lookups joined): counts and tests affected',
        partitionBy: [{ column: 'test_year', expr: 'test_year' }],
        sortBy: ['make', 'model'],
        stored: true,
      },
      {
        name: 'mot_pass_rates',
        description: 'normal tests (NT) and passes by test year, make, model, fuel, first-use band and age band',
        partitionBy: [{ column: 'test_year', expr: 'test_year' }],
        sortBy: ['make', 'model'],
        stored: true,
      },
      { name: 'mot_years', description: 'one row per test year: tests, excluded outcomes, first and last test date, items', sortBy: ['test_year'] },
    ],
  },
};
