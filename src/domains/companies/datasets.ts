/** The companies domain's mirror datasets (catalogue entries; see src/mirror/catalog.ts for the fields). */
import { OGL } from '../../contract/types.js';
import type { CountScopeOption, DatasetInfo } from '../../mirror/catalog.js';

/** `sync accounts --months N`: the last N months (60: the live API's five years of accounts). */
export const ACCOUNTS_MONTHS = {
  name: 'months', description: 'the last N months (60 matches the live five years)', max: 240, default: 12,
} as const satisfies CountScopeOption;

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
  dateScope: [
    { name: 'days', description: 'the daily zips of the last N days (quick start: --days 30)', example: '30', max: 366 },
    ACCOUNTS_MONTHS,
  ],
  export: {
    tables: [
      {
        name: 'accounts_filings',
        description: 'one row per accounts filing (iXBRL/XBRL document): company, balance sheet date, type, standard, quality counts',
        partitionBy: [{ column: 'year', expr: 'CAST(year(balance_sheet_date) AS INTEGER)' }],
        sortBy: ['company_number', 'balance_sheet_date'],
      },
      {
        name: 'accounts_periods',
        description: 'one row per filing and reporting period (the current one and its comparative): the figures, joined to accounts_filings on filing_id',
        partitionBy: [{ column: 'year', expr: 'CAST(year(period_end) AS INTEGER)' }],
        sortBy: ['company_number', 'period_end'],
      },
      { name: 'accounts_zips', description: 'one row per bulk zip loaded: name, URL, publication date, documents, rejects', sortBy: ['published', 'name'] },
    ],
  },
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
  export: {
    tables: [
      { name: 'companies', description: 'one row per company on the live register (BasicCompanyData)', sortBy: ['company_number'], stored: true },
      { name: 'departed', description: 'one row per company that left the register between monthly snapshots, with its last known details', sortBy: ['company_number'], stored: true },
    ],
  },
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
  export: {
    tables: [
      { name: 'psc', description: 'one row per person with significant control, statement or exemption, by company', sortBy: ['company_number'], stored: true },
      { name: 'psc_totals', description: 'the snapshot totals stated by Companies House (persons, statements, exemptions)', select: 'SELECT * EXCLUDE (file) FROM psc_totals' },
    ],
  },
};
