/** The postcodes domain's mirror dataset: the ONS Postcode Directory (catalogue entry; see src/mirror/catalog.ts). */
import { OGL } from '../../contract/types.js';
import type { DatasetInfo } from '../../mirror/catalog.js';

/** The three attribution lines the ONSPD user guide requires (all three in meta.licence). */
export const ONSPD_ATTRIBUTION =
  'Contains OS data © Crown copyright and database right {year}. Contains Royal Mail data © Royal Mail copyright and database right {year}. ' +
  'Source: Office for National Statistics licensed under the Open Government Licence v.3.0.';

export const POSTCODES_INFO: DatasetInfo = {
  name: 'postcodes',
  title: 'ONS Postcode Directory (every UK postcode, live and terminated, with its location and areas)',
  file: 'postcodes.duckdb',
  schema: 'postcodes',
  publisher: 'Office for National Statistics (ONS Postcode Directory)',
  sourceUrl: 'https://geoportal.statistics.gov.uk/search?q=PRD_ONSPD',
  licence: `${OGL}. ${ONSPD_ATTRIBUTION}`,
  attribution: ONSPD_ATTRIBUTION,
  approxDownload: '250 MB',
  cadence: 'quarterly',
  staleAfterDays: 120,
  export: {
    tables: [
      // the load ends with ORDER BY lat NULLS LAST, pc_key (sync.ts): zone maps prune a radius query to its band
      { name: 'postcodes', description: 'one row per postcode: display form and key, dates, grid reference and WGS84 point (null without one), area codes (null for pseudo codes), deprivation rank, rural-urban code', sortBy: ['lat', 'pc_key'], stored: true },
      { name: 'postcode_index', description: 'postcode key and latitude, sorted by key: the lookup path into postcodes', sortBy: ['pc_key'], stored: true },
      { name: 'area_names', description: "code-to-name lookups from the edition's Documents/ folder: code, name, kind (gss or ru), file", sortBy: ['kind', 'code'] },
      { name: 'edition', description: 'the edition loaded: name, file, published stamp, the column found for each field (JSON), rows missing each area (JSON)' },
    ],
  },
};
