/** The crime domain's mirror dataset (catalogue entry; see src/mirror/catalog.ts for the fields). */
import { OGL } from '../../contract/types.js';
import type { DatasetInfo } from '../../mirror/catalog.js';

export const CRIME_INFO: DatasetInfo = {
  name: 'crime',
  title: 'Street-level crimes and outcomes, every force (data.police.uk monthly archive)',
  file: 'crime.duckdb',
  schema: 'crime',
  publisher: 'data.police.uk (Home Office, police forces of England, Wales and Northern Ireland)',
  sourceUrl: 'https://data.police.uk/data/',
  licence: OGL,
  attribution: 'Contains public sector information licensed under the Open Government Licence v3.0 (data.police.uk).',
  // latest.zip holds ~36 months of every force's street, outcomes and stop-and-search files (measured sizes
  // are not published; the archive page lists it in the gigabytes).
  approxDownload: 'several GB (the whole rolling archive, ~36 months; the newest 12 are loaded)',
  cadence: 'monthly',
  staleAfterDays: 45,
};
