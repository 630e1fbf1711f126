/** The earnings domain's mirror dataset (catalogue entry; see src/mirror/catalog.ts for the fields). */
import { OGL } from '../../contract/types.js';
import type { DatasetInfo } from '../../mirror/catalog.js';

export const EARNINGS_INFO: DatasetInfo = {
  name: 'earnings',
  title: 'Earnings by region, industry and occupation (ONS ASHE tables 4, 7, 8 and 14)',
  file: 'earnings.duckdb',
  schema: 'earnings',
  publisher: 'Office for National Statistics',
  sourceUrl: 'https://www.ons.gov.uk/employmentandlabourmarket/peopleinwork/earningsandworkinghours/bulletins/annualsurveyofhoursandearnings/latest',
  licence: OGL,
  attribution: 'Source: Office for National Statistics, Annual Survey of Hours and Earnings. Contains public sector information licensed under the Open Government Licence v3.0.',
  approxDownload: '150 MB',
  cadence: 'yearly',
  staleAfterDays: 400,
  // April reference period, provisional results each autumn: 1 November 2023 for ASHE 2023, 6 November 2024
  // for ASHE 2024 (ONS release calendar); 1 April to 1 November is 214 days
  publicationLagDays: 214,
  dateScope: [
    {
      name: 'years',
      description: 'the ASHE years on the ONS pages',
      // sync/discover.ts chooseYears: the five newest years offered
      default: 'the five newest',
      // --years picks the years on the ONS pages; a --from file is loaded as it is, whatever its year
      discoveryOnly: true,
    },
  ],
  export: {
    tables: [
      {
        name: 'earnings',
        description: 'ASHE estimates: one row per table, year, basis, population, measure and area/industry/occupation code: median, mean and percentiles',
        sortBy: ['ons_table', 'measure', 'year', 'population', 'code'],
      },
      { name: 'earnings_sources', description: 'one row per ONS table, measure and year loaded: status, file, sheets, rows', sortBy: ['ons_table', 'measure', 'year'] },
    ],
  },
};
