/** The calendar domain's mirror dataset (catalogue entry; see src/mirror/catalog.ts for the fields). */
import { OGL } from '../../contract/types.js';
import type { DatasetInfo } from '../../mirror/catalog.js';

export const BANK_HOLIDAYS_INFO: DatasetInfo = {
  name: 'bank-holidays',
  title: 'UK bank holidays (GOV.UK)',
  file: 'bank_holidays.duckdb',
  schema: 'bank_holidays',
  publisher: 'GOV.UK',
  sourceUrl: 'https://www.gov.uk/bank-holidays',
  licence: OGL,
  attribution: 'Contains public sector information licensed under the Open Government Licence v3.0.',
  approxDownload: '20 KB',
  cadence: 'weekly',
  staleAfterDays: 30,
  export: {
    tables: [{ name: 'bank_holidays', description: 'one row per bank holiday and division (england_and_wales, scotland, northern_ireland)', sortBy: ['region', 'date'] }],
  },
};
