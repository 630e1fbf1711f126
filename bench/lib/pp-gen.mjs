// Generated price-paid input in the real format (headerless, 16 quoted columns, `{GUID}` ids,
// `YYYY-MM-DD 00:00` dates), written by DuckDB. Used by bench/property-price-paid.bench.mjs and
// bench/sql-stream.bench.mjs. Ids are md5(i) as a GUID, so the same i always gives the same id.

/** The GUID text of md5 `h` (computed once per row in a subquery, see WITH_H). */
export const ID = () => `'{' || upper(substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-' || substr(h, 13, 4) || '-' || substr(h, 17, 4) || '-' || substr(h, 21, 12)) || '}'`;
/** Row numbers `i` of `src` with their md5. */
export const WITH_H = (src) => `(SELECT i, md5(i::VARCHAR) AS h FROM ${src})`;

/**
 * The 16 columns of row `i` with record status `status` (an SQL expression). Towns are 'TOWN 0' to
 * 'TOWN 1199', evenly; `bigTown` (e.g. 12) also puts one row in `bigTown` in 'TOWN 0', so that one town
 * holds about 1/bigTown of the rows (a town of research scale: 125,000 of 1.5M rows with 12).
 */
export const ROW = (i, status, { bigTown } = {}) => `
  ${ID()} AS id,
  (20000 + (hash(${i}) % 980000))::VARCHAR AS price,
  strftime(DATE '1995-01-01' + (hash(${i} * 7) % 11250)::INT, '%Y-%m-%d') || ' 00:00' AS d,
  CASE WHEN ${i} % 200000 = 7 THEN 'LS8 3BS' ELSE
    chr(65 + (hash(${i} * 3) % 26)::INT) || chr(65 + (hash(${i} * 5) % 26)::INT) || ((1 + hash(${i} * 11) % 29)::INT)::VARCHAR
    || ' ' || ((hash(${i} * 13) % 10)::INT)::VARCHAR || chr(65 + (hash(${i} * 17) % 26)::INT) || chr(65 + (hash(${i} * 19) % 26)::INT) END AS postcode,
  ['D','S','T','F','O'][1 + (hash(${i} * 23) % 5)::INT] AS ptype,
  CASE WHEN hash(${i} * 29) % 10 = 0 THEN 'Y' ELSE 'N' END AS old_new,
  CASE WHEN hash(${i} * 31) % 4 = 0 THEN 'L' ELSE 'F' END AS duration,
  ((1 + hash(${i} * 37) % 200)::INT)::VARCHAR AS paon,
  CASE WHEN hash(${i} * 41) % 8 = 0 THEN 'FLAT ' || ((1 + hash(${i} * 43) % 20)::INT)::VARCHAR ELSE '' END AS saon,
  'STREET ' || ((hash(${i} * 47) % 300000)::INT)::VARCHAR || ' ROAD' AS street,
  CASE WHEN hash(${i} * 53) % 3 = 0 THEN 'LOCALITY ' || ((hash(${i} * 59) % 20000)::INT)::VARCHAR ELSE '' END AS locality,
  ${bigTown ? `CASE WHEN hash(${i} * 83) % ${bigTown} = 0 THEN 'TOWN 0' ELSE ` : ''}'TOWN ' || ((hash(${i} * 61) % 1200)::INT)::VARCHAR${bigTown ? ' END' : ''} AS town,
  'DISTRICT ' || ((hash(${i} * 67) % 330)::INT)::VARCHAR AS district,
  'COUNTY ' || ((hash(${i} * 71) % 100)::INT)::VARCHAR AS county,
  CASE WHEN hash(${i} * 73) % 20 = 0 THEN 'B' ELSE 'A' END AS cat,
  ${status} AS status`;

/** Node ESM code (for runNode) writing `rows` generated rows to `path` as the real file's CSV. */
export const generateCode = ({ rows, path, threads, bigTown }) => `
  import { DuckDBInstance } from '@duckdb/node-api';
  const db = await DuckDBInstance.create(':memory:', { threads: '${threads}' });
  const c = await db.connect();
  await c.run(\`COPY (SELECT ${ROW('i', "'A'", { bigTown })} FROM ${WITH_H(`range(${rows}) t(i)`)}) TO '${path}' (FORMAT csv, HEADER false, FORCE_QUOTE *)\`);
  console.log('{}');`;
