/**
 * The example domain's mirror datasets (test-only; the production registry never lists them): two
 * INVENTED CSV datasets with real sync modules (sync.ts) on the shared sync framework, so the shared sync,
 * mirror, sql and export tests need no real domain. `example-records`: a complete file, a monthly update
 * file (A/C/D by id) and yearly files that are added to the data (each replacing its year), `--years`
 * (discovery only), `--months` and `--colours`. `example-events`: one file per day, the newest `--days N`,
 * each file the unit it replaces (the per-unit shrink check). The upstream format is
 * test/fixtures/example/README.md's; the files are made by records-gen.ts.
 */
import type { DatasetEntry } from '../../../src/domains/manifest.js';
import type { CountScopeOption, DatasetInfo } from '../../../src/mirror/catalog.js';

const common = {
  publisher: 'Example Publisher (invented for tests)',
  licence: 'Invented test data (no licence needed)',
  attribution: 'Invented example data, for tests only.',
  approxDownload: '20 KB',
  staleAfterDays: 45,
} as const;

export const RECORDS_MONTHS = { name: 'months', description: 'only the records of the newest N months of the file(s)', max: 120 } as const satisfies CountScopeOption;
export const EVENTS_DAYS = { name: 'days', description: 'the daily files of the newest N days', max: 60, default: 7, example: '30' } as const satisfies CountScopeOption;

export const RECORDS_INFO: DatasetInfo = {
  ...common,
  name: 'example-records',
  title: 'Example records (invented for tests)',
  file: 'example_records.duckdb',
  schema: 'example_records',
  sourceUrl: 'https://publisher.example/records',
  cadence: 'monthly',
  syncLists: [
    { name: 'colours', placeholder: 'colours', description: 'example-records: only these colours, comma-separated (red,green,blue)', item: 'red|green|blue', example: 'comma-separated colours such as red,blue' },
  ],
  dateScope: [
    {
      name: 'years', description: 'the yearly files records-YYYY.csv of these years instead of the complete file', example: '2024-2025',
      default: 'the complete file', discoveryOnly: true, firstYear: { year: 2001, what: 'the example records start in 2001' },
    },
    RECORDS_MONTHS,
  ],
  export: {
    tables: [
      { name: 'records', description: 'one row per example record: id, colour, count, day, title', partitionBy: [{ column: 'year', expr: 'CAST(year(recorded_on) AS INTEGER)' }], sortBy: ['id'], stored: true },
    ],
  },
};

export const EVENTS_INFO: DatasetInfo = {
  ...common,
  name: 'example-events',
  title: 'Example daily events (invented for tests)',
  file: 'example_events.duckdb',
  schema: 'example_events',
  sourceUrl: 'https://publisher.example/events',
  cadence: 'daily',
  dateScope: [EVENTS_DAYS],
  export: {
    tables: [
      { name: 'records', description: 'one row per example event: id, colour, count, day, title', partitionBy: [{ column: 'month', expr: "strftime(recorded_on, '%Y-%m')" }], sortBy: ['id'] },
    ],
  },
};

export const exampleDatasets: DatasetEntry[] = [
  { info: RECORDS_INFO, sync: () => import('./sync.js').then((m) => m.recordsModule) },
  { info: EVENTS_INFO, sync: () => import('./sync.js').then((m) => m.eventsModule) },
];
