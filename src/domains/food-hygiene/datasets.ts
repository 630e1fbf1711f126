/** The food-hygiene domain's mirror dataset (catalogue entry; see src/mirror/catalog.ts for the fields). */
import { OGL } from '../../contract/types.js';
import type { DatasetInfo } from '../../mirror/catalog.js';

export const FOOD_HYGIENE_INFO: DatasetInfo = {
  name: 'food-hygiene',
  title: 'Food hygiene ratings (Food Standards Agency, FHRS and FHIS)',
  file: 'food_hygiene.duckdb',
  schema: 'food_hygiene',
  publisher: 'Food Standards Agency',
  sourceUrl: 'https://ratings.food.gov.uk/open-data',
  licence: OGL,
  attribution:
    'Contains Food Standards Agency food hygiene rating data licensed under the Open Government Licence v3.0 (daily static copy; ratings.food.gov.uk is the authoritative current rating).',
  approxDownload: '500 MB',
  cadence: 'daily',
  syncLists: [
    {
      name: 'authorities',
      placeholder: 'codes',
      description: 'food-hygiene: only these FSA local authority codes, comma-separated (quick start: one council, e.g. 314)',
      item: String.raw`\d{1,4}`,
      example: 'FSA authority codes such as 314,760',
    },
  ],
  staleAfterDays: 14,
  // authorities of the sync's scope that the FSA lists but the mirror holds no file of (a file rejected, or
  // not served), with the rejected file named: an answer about one of them has no figures (issue 37)
  statusNotes: `SELECT count(*) || CASE WHEN count(*) = 1 THEN ' authority' ELSE ' authorities' END || ' on the FSA''s list not loaded: '
      || array_to_string(list_slice(list(coalesce(l.name, l.code) || ' (' || l.code || CASE WHEN l.file_name IN (SELECT file FROM rejects) THEN ', ' || l.file_name || ' rejected' ELSE '' END || ')'
           ORDER BY CAST(l.code AS INTEGER)), 1, 5), ', ') || CASE WHEN count(*) > 5 THEN ', …' ELSE '' END AS note
    FROM listed_authorities l, scope s
    WHERE l.code NOT IN (SELECT code FROM authorities) AND (s.authorities = '*' OR list_contains(string_split(s.authorities, ','), l.code))
    HAVING count(*) > 0`,
  export: {
    tables: [
      {
        name: 'establishments',
        description: 'one row per FHRS establishment: business, address, rating and scores, local authority, point',
        sortBy: ['fhrs_id'],
      },
      { name: 'authorities', description: 'one row per local authority file loaded: name, region, scheme, file, extract date, counts', sortBy: ['code'] },
    ],
  },
};
