/** The schools domain's mirror dataset (catalogue entry; see src/mirror/catalog.ts for the fields). */
import { OGL } from '../../contract/types.js';
import type { DatasetInfo } from '../../mirror/catalog.js';

export const SCHOOLS_INFO: DatasetInfo = {
  name: 'schools',
  title: 'Schools register (DfE GIAS) with the latest Ofsted inspections (state-funded schools)',
  file: 'schools.duckdb',
  schema: 'schools',
  publisher: 'Ofsted and Department for Education (Get Information about Schools)',
  sourceUrl: 'https://www.gov.uk/government/statistical-data-sets/monthly-management-information-ofsteds-school-inspections-outcomes',
  licence: OGL,
  attribution:
    'Contains public sector information licensed under the Open Government Licence v3.0 (Ofsted management information; ' +
    'Department for Education, Get Information about Schools).',
  approxDownload: '80 MB',
  cadence: 'monthly',
  staleAfterDays: 45,
  // the data's date is the older of the register's extract date (published that day) and the management
  // information's "as at" date, which is published monthly after it: about a month (an estimate from the
  // monthly cadence, gov.uk's statistical data set page; no publication rule is stated)
  publicationLagDays: 30,
  // inspections whose URN the register does not hold: answered from the management information's own
  // name, postcode and authority (in_register false), and counted here (issue 37)
  statusNotes: `SELECT count(*) || ' inspection(s) of schools not in the register (answered from the management information, in_register false)' AS note
    FROM inspections i WHERE NOT EXISTS (SELECT 1 FROM schools s WHERE s.urn = i.urn) HAVING count(*) > 0`,
  export: {
    tables: [
      // both loads end with ORDER BY urn (src/domains/schools/sync/index.ts)
      { name: 'schools', description: 'one row per GIAS establishment: name, type, phase, status, address, point, local authority', sortBy: ['urn'], stored: true },
      { name: 'inspections', description: 'one row per school in Ofsted management information: its latest inspections and judgements', sortBy: ['urn'], stored: true },
      { name: 'phases', description: 'the GIAS phase code list: code, name, slug (data/schools/reference.json)', sortBy: ['code'] },
      { name: 'statuses', description: 'the GIAS status code list: code, name, slug (data/schools/reference.json)', sortBy: ['code'] },
      { name: 'sources', description: 'one row per source file loaded (GIAS, MI): file, URL, sha256, published date, layout, rows', sortBy: ['source'] },
    ],
  },
};
