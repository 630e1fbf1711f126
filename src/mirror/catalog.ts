/**
 * Static facts about every mirror dataset: file name, publisher, licence, rough download size and
 * update cadence. Used by handlers (provenance, "not synced" errors) and `mirror status` without
 * importing any sync module; sync/<dataset>.ts modules may spread these into their DatasetModule.
 */
import { OGL } from '../contract/types.js';

export interface DatasetInfo {
  name: string;
  title: string;
  /** DuckDB file name inside the mirror dir. */
  file: string;
  /** SQL schema name under which `publicdata sql` ATTACHes the file. */
  schema: string;
  /** meta.source */
  publisher: string;
  /** meta.source_url: the publisher's page for the data set. */
  sourceUrl: string;
  licence: string;
  attribution: string;
  /** Rough size of a full download, for "not synced" messages. */
  approxDownload: string;
  /** How often the publisher updates it. */
  cadence: 'daily' | 'weekly' | 'monthly' | 'quarterly' | 'yearly';
  /** Days after the last sync (or after the upstream publication date) before `mirror status` calls it stale. */
  staleAfterDays: number;
}

const HMLR_ATTRIBUTION =
  'Contains HM Land Registry data © Crown copyright and database right {year}. This data is licensed under the Open Government Licence v3.0.';

export const DATASETS: Record<string, DatasetInfo> = {
  'price-paid': {
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
  },
  hpi: {
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
  },
  'council-tax': {
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
  },
  'listed-buildings': {
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
  },
  'conservation-areas': {
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
  },
  'bank-holidays': {
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
  },
};

export function datasetInfo(name: string): DatasetInfo {
  const d = DATASETS[name];
  if (!d) throw new Error(`Unknown dataset '${name}'. Known: ${Object.keys(DATASETS).join(', ')}.`);
  return d;
}

/** The attribution line with the year filled in. */
export function attributionFor(name: string, year: number = new Date().getUTCFullYear()): string {
  return datasetInfo(name).attribution.replace('{year}', String(year));
}
