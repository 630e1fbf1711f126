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

const CH_ATTRIBUTION =
  'Contains Companies House data © Crown copyright and database right {year}. This data is licensed under the Open Government Licence v3.0.';

export const COMPANIES_INFO: DatasetInfo = {
  name: 'companies',
  title: 'Companies House Free Company Data Product (BasicCompanyData, the live register)',
  file: 'companies.duckdb',
  schema: 'companies',
  publisher: 'Companies House',
  sourceUrl: 'https://download.companieshouse.gov.uk/en_output.html',
  licence: OGL,
  attribution: CH_ATTRIBUTION,
  approxDownload: '500 MB',
  cadence: 'monthly',
  // Named after the 1st of each month and released within its first days: stale after ~6 weeks.
  staleAfterDays: 40,
};

export const PSC_INFO: DatasetInfo = {
  name: 'psc',
  title: 'Companies House persons with significant control snapshot',
  file: 'psc.duckdb',
  schema: 'psc',
  publisher: 'Companies House',
  sourceUrl: 'https://download.companieshouse.gov.uk/en_pscdata.html',
  licence: OGL,
  attribution: `${CH_ATTRIBUTION} Contains personal data (see README, "Personal data").`,
  approxDownload: '2 GB',
  cadence: 'daily',
  // Published every morning, but each pull is ~2 GB: a week is the default freshness.
  staleAfterDays: 7,
};
