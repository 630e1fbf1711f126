// GENERATED STATS19 input in the republished layout (44 / 32 / 23 columns, dd/mm/yyyy dates, HH:MM times,
// string indexes), written by DuckDB: `perYear` collisions a year (vehicles 2 and casualties 1.3 per
// collision), positions spread over 51-55 N, 3 W-1 E. Used by bench/vehicles-road-safety.bench.mjs and
// the all-sections area bench (bench/lib/area-data.mjs). Not DfT data.
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runNode } from './child.mjs';

const url = (p) => pathToFileURL(p).href;

/** A SQL expression for one generated column of a kind (`i` = row number, `c` = collision number). */
function valueSql(name, kind, year) {
  if (name === 'collision_index') return `'${year}' || CASE WHEN c % 97 = 0 THEN lpad(c::VARCHAR, 4, '0') || 'H' || lpad((c % 10000)::VARCHAR, 4, '0') ELSE lpad(c::VARCHAR, 9, '0') END`;
  if (name === 'collision_year') return `'${year}'`;
  if (name === 'collision_ref_no') return `CASE WHEN c % 97 = 0 THEN lpad(c::VARCHAR, 4, '0') || 'H' || lpad((c % 10000)::VARCHAR, 4, '0') ELSE lpad(c::VARCHAR, 9, '0') END`;
  if (name === 'vehicle_reference') return `(1 + i % 2)::VARCHAR`;
  if (name === 'casualty_reference') return `(1 + i % 3)::VARCHAR`;
  if (name === 'longitude') return `printf('%.6f', -3 + (hash(i * 3) % 400000) / 100000.0)`;
  if (name === 'latitude') return `printf('%.6f', 51 + (hash(i * 5) % 400000) / 100000.0)`;
  if (name === 'date') return `strftime(DATE '${year}-01-01' + (hash(c * 7) % 365)::INT, '%d/%m/%Y')`;
  if (name === 'time') return `CASE WHEN c % 500 = 0 THEN '' ELSE lpad((hash(c) % 24)::VARCHAR, 2, '0') || ':' || lpad((hash(c * 11) % 60)::VARCHAR, 2, '0') END`;
  if (name.startsWith('lsoa')) return `CASE WHEN i % 50 = 0 THEN '-1' ELSE 'E0' || lpad((1000000 + hash(i * 13) % 35000)::VARCHAR, 7, '0') END`;
  if (name.startsWith('local_authority') && name !== 'local_authority_district') return `'E0600' || lpad((hash(c * 17) % 400)::VARCHAR, 4, '0')`;
  if (name === 'generic_make_model') return `CASE WHEN i % 4 = 0 THEN '-1' ELSE 'FORD FIESTA' END`;
  if (kind === 'double') return `printf('%.6f', (hash(i * 19) % 1000000) / 1000000.0)`;
  if (kind === 'text') return `'x'`;
  return `((hash(i * ${name.length + 23}) % 12)::INT - 1)::VARCHAR`;
}

/** Writes the 3 x years files into `input` (once: an existing folder is kept). */
export async function generateStats19({ input, perYear: PER_YEAR, years: YEARS, threads: THREADS, dist, log = () => {} }) {
  if (existsSync(input)) return;
  const { STATS19_COLUMNS } = await import(url(join(dist, 'src', 'domains', 'vehicles', 'sync', 'road-safety.js')));
  const tmp = `${input}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const counts = { collision: PER_YEAR, vehicle: PER_YEAR * 2, casualty: Math.round(PER_YEAR * 1.3) };
  const stmts = [];
  for (const year of YEARS) {
    for (const kind of ['collision', 'vehicle', 'casualty']) {
      const cols = STATS19_COLUMNS[kind].map((s) => `${valueSql(s.header ?? s.column, s.kind, year)} AS "${s.header ?? s.column}"`);
      const per = counts[kind] / PER_YEAR;
      const file = join(tmp, `dft-road-casualty-statistics-${kind}-${year}.csv`);
      stmts.push(`COPY (SELECT ${cols.join(', ')} FROM (SELECT i, (i / ${per})::BIGINT AS c FROM range(${counts[kind]}) t(i))) TO '${file}' (FORMAT csv, HEADER true)`);
    }
  }
  log(`generating ${YEARS.length} years x ${PER_YEAR.toLocaleString('en-GB')} collisions → ${input}`);
  const { ms } = runNode(`
    import { DuckDBInstance } from '@duckdb/node-api';
    const db = await DuckDBInstance.create(':memory:', { threads: '${THREADS}' });
    const c = await db.connect();
    for (const s of ${JSON.stringify(stmts)}) await c.run(s);
    console.log('{}');`);
  renameSync(tmp, input);
  log(`generated in ${(ms / 1000).toFixed(1)} s`);
}
