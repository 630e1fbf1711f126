/**
 * `psc`: Companies House's persons-with-significant-control snapshot (published every morning).
 *
 * Upstream: https://download.companieshouse.gov.uk/en_pscdata.html links
 * `persons-with-significant-control-snapshot-YYYY-MM-DD.zip` (one file) and `psc-snapshot-YYYY-MM-DD_kofN.zip`
 * (parts). Discovery prefers the one-file zip, else every part. Each zip holds newline-delimited JSON
 * `{"company_number": ..., "data": {...}}`; the last line of the snapshot is a totals trailer with no
 * company number, so lines are read with explicit columns {company_number VARCHAR, data JSON} (DuckDB's
 * auto-detecting reader fails on the trailer) and the loaded count is checked against the trailer (a
 * warning on mismatch, e.g. when only some parts were given with --from).
 *
 * Personal data: only what the routes need is stored (docs/companies.md "PSC and personal data"): name,
 * nationality, country of residence, natures of control, notified/ceased dates, the corporate
 * registration number, and an identity key for matching controllers across companies (individuals:
 * forename, surname and month and year of birth). No addresses, no dates of birth, no etags or links.
 * Unknown kinds are counted as rejects (company number and kind only), never a failure.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { query, queryOne } from '../../../mirror/db.js';
import { count, snapshotDataset, MAX_STORED_REJECTS } from '../../../../sync/common.js';
import { dataFiles } from '../../../../sync/formats/zip.js';
import { STAGE_DB, withStaging } from '../../../../sync/staging.js';
import type { DatasetModule, DiscoverContext, LoadContext, LoadResult, UpstreamFile } from '../../../../sync/types.js';
import { PSC_INFO } from '../datasets.js';
import { pickSnapshotFiles } from './snapshot.js';

export const DEFAULT_BASE_URL = 'https://download.companieshouse.gov.uk';
const PAGE = 'en_pscdata.html';

export const FILE_RE = /^(persons-with-significant-control-snapshot-(\d{4}-\d{2}-\d{2})|psc-snapshot-(\d{4}-\d{2}-\d{2})_(\d+)of(\d+))\.(zip|txt|json)$/i;

const TRAILER_KIND = 'totals#persons-of-significant-control-snapshot';

/** data.kind → psc_type, for the person kinds (statements and exemptions are their own record types). */
export const PSC_KINDS: Record<string, string> = {
  'individual-person-with-significant-control': 'individual',
  'corporate-entity-person-with-significant-control': 'corporate_entity',
  'legal-person-person-with-significant-control': 'legal_person',
  'super-secure-person-with-significant-control': 'super_secure',
  'individual-beneficial-owner': 'individual_beneficial_owner',
  'corporate-entity-beneficial-owner': 'corporate_entity_beneficial_owner',
  'legal-person-beneficial-owner': 'legal_person_beneficial_owner',
  'super-secure-beneficial-owner': 'super_secure_beneficial_owner',
};
const OTHER_KINDS: Record<string, string> = {
  'persons-with-significant-control-statement': 'statement',
  exemptions: 'exemptions',
};

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const kindCase = (expr: string, map: Record<string, string>) =>
  `CASE ${expr} ${Object.entries(map).map(([k, v]) => `WHEN ${lit(k)} THEN ${lit(v)}`).join(' ')} END`;

/** JSON paths read from each line in one parse (json_extract_string with a list). */
const PATHS = [
  '$.kind', '$.name', '$.nationality', '$.country_of_residence', '$.notified_on', '$.ceased_on', '$.ceased', '$.statement',
  '$.name_elements.forename', '$.name_elements.surname', '$.date_of_birth.year', '$.date_of_birth.month',
  '$.identification.registration_number', '$.identification.country_registered', '$.identification.legal_form',
  '$.persons_of_significant_control_count', '$.statements_count', '$.exemptions_count', '$.generated_at',
];
const at = (p: string) => `_e[${PATHS.indexOf(p) + 1}]`;
const up = (s: string) => `nullif(upper(trim(${s})), '')`;

/**
 * The identity key used to match the same controller across companies:
 *  - individuals (and individual beneficial owners): `I|FORENAME|SURNAME|YYYY-MM` (month and year of birth);
 *  - corporate entities and legal persons: `C|<registration number>` when it has the form of a UK company
 *    number (digits padded to 8), else `C|<number>|<country registered>`.
 * NULL when the parts are missing (super-secure records, names without elements or birth date).
 */
const IDENTITY = `CASE
  WHEN _kind IN ('individual-person-with-significant-control', 'individual-beneficial-owner')
    AND ${up(at('$.name_elements.forename'))} IS NOT NULL AND ${up(at('$.name_elements.surname'))} IS NOT NULL
    AND try_cast(${at('$.date_of_birth.year')} AS INTEGER) IS NOT NULL AND try_cast(${at('$.date_of_birth.month')} AS INTEGER) IS NOT NULL
    THEN 'I|' || ${up(at('$.name_elements.forename'))} || '|' || ${up(at('$.name_elements.surname'))} || '|'
      || ${at('$.date_of_birth.year')} || '-' || lpad(${at('$.date_of_birth.month')}, 2, '0')
  WHEN _kind IN ('corporate-entity-person-with-significant-control', 'legal-person-person-with-significant-control',
                 'corporate-entity-beneficial-owner', 'legal-person-beneficial-owner') AND _reg IS NOT NULL
    THEN CASE WHEN regexp_full_match(_reg, '([A-Z]{2}[0-9]{6}|[0-9]{8})') THEN 'C|' || _reg
              ELSE 'C|' || _reg || '|' || coalesce(${up(at('$.identification.country_registered'))}, '') END
END`;

/** The registration number in Companies House form: upper case, no spaces, all-digit numbers padded to 8. */
const REG = `(CASE WHEN regexp_full_match(_r, '[0-9]{1,8}') THEN lpad(_r, 8, '0') ELSE nullif(_r, '') END)`;

function stageSelect(): string {
  return `
  SELECT
    company_number,
    _kind AS kind,
    CASE WHEN _kind IN (${Object.keys(PSC_KINDS).map(lit).join(', ')}) THEN 'psc'
      ELSE coalesce(${kindCase('_kind', OTHER_KINDS)}, CASE WHEN _kind = ${lit(TRAILER_KIND)} THEN 'totals' ELSE 'unknown' END) END AS record_type,
    ${kindCase('_kind', PSC_KINDS)} AS psc_type,
    ${at('$.name')} AS name,
    ${at('$.nationality')} AS nationality,
    ${at('$.country_of_residence')} AS country_of_residence,
    CAST(json_extract(data, '$.natures_of_control') AS VARCHAR[]) AS natures_of_control,
    try_cast(${at('$.notified_on')} AS DATE) AS notified_on,
    try_cast(${at('$.ceased_on')} AS DATE) AS ceased_on,
    coalesce(try_cast(${at('$.ceased')} AS BOOLEAN), try_cast(${at('$.ceased_on')} AS DATE) IS NOT NULL) AS ceased,
    ${at('$.statement')} AS statement,
    _reg AS registration_number,
    ${at('$.identification.country_registered')} AS country_registered,
    ${at('$.identification.legal_form')} AS legal_form,
    ${IDENTITY} AS identity_key,
    -- trailer fields (NULL on every other line)
    try_cast(${at('$.persons_of_significant_control_count')} AS BIGINT) AS t_persons,
    try_cast(${at('$.statements_count')} AS BIGINT) AS t_statements,
    try_cast(${at('$.exemptions_count')} AS BIGINT) AS t_exemptions,
    ${at('$.generated_at')} AS t_generated_at,
    ? AS _file
  FROM (
    SELECT *, ${at('$.kind')} AS _kind, ${REG.replace(/_r/g, `upper(replace(coalesce(${at('$.identification.registration_number')}, ''), ' ', ''))`)} AS _reg
    FROM (
      SELECT company_number, data, json_extract_string(data, [${PATHS.map(lit).join(', ')}]) AS _e
      FROM read_json(?, format = 'newline_delimited', columns = {company_number: 'VARCHAR', data: 'JSON'}, maximum_object_size = 16777216)
    )
  )`;
}

/**
 * The staged rows, in the load's staging database (sync/staging.ts: a scratch file, not a TEMP table held
 * uncompressed in memory beside the sort that follows; docs/performance.md, "Staging in a scratch file").
 */
const STAGE = `${STAGE_DB}._psc_stage`;

/** The stored columns of `psc` (no addresses, no dates of birth). */
const PSC_COLUMNS = `company_number, kind, record_type, psc_type, name, nationality, country_of_residence, natures_of_control,
  notified_on, ceased_on, ceased, statement, registration_number, country_registered, legal_form, identity_key`;

async function loadPsc(ctx: LoadContext): Promise<LoadResult> {
  const { conn } = ctx;
  const workDir = ctx.workDir ?? `${ctx.files[0]!.path}.extract`;
  let first = true;
  const isData = (m: { name: string }) => /\.(txt|json|jsonl|ndjson)$/i.test(m.name);
  for await (const f of dataFiles(ctx.files, workDir, isData)) {
    const t = Date.now();
    const sql = stageSelect();
    await conn.run(first ? `CREATE TABLE ${STAGE} AS ${sql}` : `INSERT INTO ${STAGE} ${sql}`, [f.from === f.name ? f.name : `${f.from}:${f.name}`, f.path]);
    first = false;
    const n = await count(conn, `SELECT count(*) AS n FROM ${STAGE}`);
    ctx.progress(n);
    ctx.log?.(`${f.name}: read in ${((Date.now() - t) / 1000).toFixed(1)} s (${n} lines so far)`);
  }
  if (first) throw new Error('no PSC snapshot file found in the downloaded files');

  // Unknown kinds: rejects (company number and kind only; the record may hold personal data).
  const unknown = await count(conn, `SELECT count(*) AS n FROM ${STAGE} WHERE record_type = 'unknown'`);
  if (unknown) {
    await conn.run(
      `INSERT INTO rejects (file, line, raw, reason)
       SELECT _file, NULL, concat_ws(' ', company_number, kind), 'unknown kind ' || coalesce(kind, '(none)')
       FROM ${STAGE} WHERE record_type = 'unknown' LIMIT ${MAX_STORED_REJECTS}`,
    );
    const kinds = await query<{ kind: string | null; n: number }>(conn, `SELECT kind, count(*) AS n FROM ${STAGE} WHERE record_type = 'unknown' GROUP BY kind ORDER BY n DESC`);
    ctx.log?.(`kept as rejects: ${kinds.map((k) => `${k.n} of kind ${k.kind ?? '(none)'}`).join(', ')}`);
  }
  const t = Date.now();
  await conn.run(
    `CREATE TABLE psc AS SELECT ${PSC_COLUMNS} FROM ${STAGE}
     WHERE record_type NOT IN ('totals', 'unknown') AND company_number IS NOT NULL
     ORDER BY company_number, notified_on NULLS LAST, name`,
  );
  await conn.run(
    `CREATE TABLE psc_totals AS SELECT t_persons AS persons_count, t_statements AS statements_count, t_exemptions AS exemptions_count,
       t_generated_at AS generated_at, _file AS file FROM ${STAGE} WHERE record_type = 'totals'`,
  );
  const noNumber = await count(conn, `SELECT count(*) AS n FROM ${STAGE} WHERE record_type NOT IN ('totals', 'unknown') AND company_number IS NULL`);
  if (noNumber) {
    await conn.run(
      `INSERT INTO rejects (file, line, raw, reason) SELECT _file, NULL, kind, 'no company_number' FROM ${STAGE}
       WHERE record_type NOT IN ('totals', 'unknown') AND company_number IS NULL LIMIT ${MAX_STORED_REJECTS}`,
    );
  }
  await conn.run(`DROP TABLE ${STAGE}`);
  // Network lookups: a narrow copy sorted on the identity key (zonemaps find a key in one row group).
  await conn.run(
    `CREATE TABLE psc_by_identity AS SELECT identity_key, company_number, ceased FROM psc WHERE identity_key IS NOT NULL ORDER BY identity_key, company_number`,
  );
  ctx.log?.(`sorted in ${((Date.now() - t) / 1000).toFixed(1)} s`);

  const rows = await count(conn, 'SELECT count(*) AS n FROM psc');
  await checkTrailer(conn, ctx, rows + unknown);
  const asOf =
    ctx.files.map((f) => f.published ?? snapshotDate(f.name)).filter((d): d is string => !!d).sort().pop() ??
    (await queryOne<{ d: string | null }>(conn, 'SELECT max(try_cast(left(generated_at, 10) AS DATE))::VARCHAR AS d FROM psc_totals'))?.d ??
    undefined;
  ctx.progress(rows);
  return { rows, rejected: unknown + noNumber, mode: 'full', ...(asOf ? { asOf } : {}) };
}

/** Compare the records read with the trailer's totals; a warning (never a failure) when they differ or it is missing. */
async function checkTrailer(conn: DuckDBConnection, ctx: LoadContext, read: number): Promise<void> {
  const t = await queryOne<{ persons: number; statements: number; exemptions: number; n: number }>(
    conn,
    'SELECT sum(persons_count) AS persons, sum(statements_count) AS statements, sum(exemptions_count) AS exemptions, count(*) AS n FROM psc_totals',
  );
  if (!t || !t.n) {
    ctx.log?.('warning: no totals trailer line was found (a partial snapshot?); the loaded count could not be verified');
    return;
  }
  const expected = (t.persons ?? 0) + (t.statements ?? 0) + (t.exemptions ?? 0);
  if (expected !== read) {
    ctx.log?.(
      `warning: the snapshot's trailer counts ${expected} records (${t.persons} persons, ${t.statements} statements, ${t.exemptions} exemptions) but ${read} were read; ` +
        'the download may be incomplete (or only some parts were given with --from)',
    );
  } else {
    ctx.log?.(`trailer verified: ${expected} records`);
  }
}

function snapshotDate(name: string): string | undefined {
  const m = FILE_RE.exec(name);
  return m?.[2] ?? m?.[3];
}

/** The one-file zip of the newest date on the page, else all its parts. */
export function pickSnapshot(links: Map<string, string>): UpstreamFile[] | string {
  return pickSnapshotFiles(
    links,
    (name) => {
      const m = FILE_RE.exec(name);
      if (!m || m[6]!.toLowerCase() !== 'zip') return undefined;
      return m[2] ? { date: m[2], one: true } : { date: m[3]!, part: { k: Number(m[4]), n: Number(m[5]) } };
    },
    { what: 'PSC' },
  );
}

const psc: DatasetModule = {
  ...snapshotDataset({
    info: PSC_INFO,
    baseUrl: DEFAULT_BASE_URL,
    page: PAGE,
    pageTitle: 'Companies House PSC download page',
    fileRe: FILE_RE,
    snapshotDate,
    pick: (links) => pickSnapshot(links),
    fromHint: 'persons-with-significant-control-snapshot-YYYY-MM-DD.zip, a folder of the parts, or a URL',
  }),
  // Unknown kinds are rejects but never fail the sync (new kinds have appeared over the years).
  rejectThreshold: 1,
  tables: ['psc'],

  load: (ctx) => withStaging(ctx, 'psc', () => loadPsc(ctx)),

  async verify(conn: DuckDBConnection): Promise<void> {
    const total = await count(conn, 'SELECT count(*) AS n FROM psc');
    if (total === 0) throw new Error('psc is empty');
    const cols = await query<{ column_name: string }>(conn, "SELECT column_name FROM duckdb_columns() WHERE table_name = 'psc' AND database_name = current_database()");
    const forbidden = cols.map((c) => c.column_name).filter((c) => /address|birth|dob/i.test(c));
    if (forbidden.length) throw new Error(`personal-data columns must not be stored: ${forbidden.join(', ')}`);
  },
};

export default psc;
export { psc };
