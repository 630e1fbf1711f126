/** The crime domain's mirror dataset (catalogue entry; see src/mirror/catalog.ts for the fields). */
import { OGL } from '../../contract/types.js';
import type { CountScopeOption, DatasetInfo } from '../../mirror/catalog.js';

/**
 * `sync crime --months N`: the newest N months of the archive. The mirror keeps every month a sync loaded,
 * so `crime street|stats --months` takes the same bound (commands.ts).
 */
export const CRIME_MONTHS = {
  name: 'months', description: 'the newest N months of the archive', max: 240, default: 12,
} as const satisfies CountScopeOption;

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
  // are not published; the archive page lists it in the gigabytes). Read after "about" in the
  // not-synced message (src/mirror/errors.ts) and the status note.
  approxDownload: '1.7 GB: the whole rolling archive of 36 months, of which the newest 12 are loaded',
  cadence: 'monthly',
  syncLists: [
    {
      name: 'forces',
      placeholder: 'slugs',
      description: 'crime: only these police forces, comma-separated slugs (e.g. metropolitan,city-of-london)',
      item: '[a-z0-9]+(-[a-z0-9]+)*',
      example: 'comma-separated force slugs such as metropolitan,city-of-london',
    },
  ],
  staleAfterDays: 45,
  dateScope: [CRIME_MONTHS],
  export: {
    tables: [
      {
        name: 'street',
        description: 'one row per street-level crime (or anti-social behaviour incident): month, force, snapped point, LSOA, category and its label, last outcome',
        partitionBy: [{ column: 'month', expr: 'month' }],
        // The load orders street on a spatial key computed from latitude/longitude (0.01-degree bands,
        // src/domains/crime/sync.ts), not a column of the rows: the exporter sorts each month on lsoa_code.
        sortBy: ['lsoa_code'],
      },
      {
        name: 'outcomes',
        description: 'one row per outcome published for a crime: crime_id, month, force, point, LSOA, outcome',
        // The load orders outcomes on crime_id (sync.ts): one directory, files in crime_id order.
        sortBy: ['crime_id'],
        stored: true,
      },
      { name: 'categories', description: 'the crime category code list: category slug and its label (data/crime/categories.json)', sortBy: ['category'] },
      { name: 'forces', description: 'one row per force in the mirror: name, first and last month, street rows', sortBy: ['force'] },
      { name: 'coverage', description: 'one row per month held: street and outcome rows, the archives it came from', sortBy: ['month'] },
      { name: 'loads', description: 'one row per month and force held: the archive or file its rows came from', sortBy: ['month', 'force'] },
    ],
  },
};
