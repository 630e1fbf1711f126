/** The companies domain's mirror datasets (catalogue entries; see src/mirror/catalog.ts for the fields). */
import { OGL } from '../../contract/types.js';
import type { DatasetInfo } from '../../mirror/catalog.js';

export const ACCOUNTS_INFO: DatasetInfo = {
  name: 'accounts',
  title: 'Companies House Accounts Data Product (electronically filed accounts, iXBRL)',
  file: 'accounts.duckdb',
  schema: 'accounts',
  publisher: 'Companies House',
  sourceUrl: 'https://download.companieshouse.gov.uk/en_accountsdata.html',
  licence: OGL,
  attribution: 'Contains public sector information licensed under the Open Government Licence v3.0 (Companies House Accounts Data Product).',
  // 12 monthly archives (~2-3 GB each, estimated) plus the dailies since; `--days 30` is about 3 GB.
  approxDownload: '25-35 GB for 12 months (--days 30: about 3 GB)',
  cadence: 'daily',
  staleAfterDays: 7,
};
