/**
 * Which months of a request's range the mirror holds FOR ITS AREA, so that a count of 0 always means
 * "loaded, and none" (docs/crime.md "Months loaded for an area").
 *
 * A month is held for a force when that force's street file of the month is loaded (it has street rows:
 * table `force_months`, built by the sync; an older file without it: computed from `street`). The forces
 * of an area: the force asked; for a point or an LSOA, the forces with street rows in it in any month
 * held. A month of the range is held for the area when at least one of the area's forces is loaded for it
 * (partly held when some are not: the note names them); the other months are not reported as 0 crimes but
 * left out and named in `meta.note`.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { query, Where } from '../../mirror/db.js';
import { addArea, type Area, type Coverage } from './area.js';

export interface MonthRange {
  from: string | null;
  to: string | null;
}

export interface AreaMonths {
  /** Months of the range held for the area (at least one of its forces loaded), oldest first. */
  held: string[];
  /** What meta.note should say about the months of the range not (fully) held, if anything. */
  note?: string;
}

const hasTable = new WeakMap<DuckDBConnection, Promise<boolean>>();
/** `force_months`, or the same computed from `street` for a file synced before the table existed. */
async function forceMonths(conn: DuckDBConnection): Promise<string> {
  let p = hasTable.get(conn);
  if (!p) {
    // asked of the table itself, not of duckdb_tables(): the catalog function's first call in a process
    // costs 3-5 ms, the empty read 0.5 ms (docs/performance.md, "The radius query")
    p = query(conn, 'SELECT month FROM force_months LIMIT 0').then(
      () => true,
      (e: unknown) => {
        if (/force_months/.test(String(e)) && /does not exist/i.test(String(e))) return false;
        throw e;
      },
    );
    hasTable.set(conn, p);
  }
  return (await p) ? 'force_months' : '(SELECT month, force, count(*) AS street_rows FROM street GROUP BY month, force)';
}

/** Every month from `from` to `to` inclusive (YYYY-MM). */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  let [y, m] = from.split('-').map(Number) as [number, number];
  for (let s = from; s <= to; ) {
    out.push(s);
    m += 1;
    if (m > 12) [y, m] = [y + 1, 1];
    s = `${y}-${String(m).padStart(2, '0')}`;
  }
  return out;
}

/** Sorted months as runs: "2024-02 to 2025-04, 2025-06". */
export function monthRuns(months: readonly string[]): string {
  const runs: string[] = [];
  let start: string | undefined;
  let prev: string | undefined;
  const flush = () => start && runs.push(start === prev ? start : `${start} to ${prev!}`);
  for (const m of months) {
    if (prev && monthsBetween(prev, m).length === 2) {
      prev = m;
      continue;
    }
    flush();
    start = m;
    prev = m;
  }
  flush();
  return runs.join(', ');
}

/** The forces whose street rows lie in the area, in any month held (a force area: that force). */
async function areaForces(conn: DuckDBConnection, area: Area): Promise<string[]> {
  if (area.kind === 'force') return [area.force];
  const where = new Where();
  await addArea(conn, where, area);
  return (await query<{ force: string }>(conn, `SELECT DISTINCT force FROM street ${where.sql} ORDER BY force`, where.params)).map((r) => r.force);
}

/** The months of the force(s) street files held, by month: month -> forces. */
async function heldByMonth(conn: DuckDBConnection, forces: string[], m: { from: string; to: string }): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  if (!forces.length) return out;
  const rows = await query<{ month: string; force: string }>(
    conn,
    `SELECT month, force FROM ${await forceMonths(conn)} WHERE force IN (${forces.map(() => '?').join(', ')}) AND month BETWEEN ? AND ?`,
    [...forces, m.from, m.to],
  );
  for (const r of rows) out.set(r.month, (out.get(r.month) ?? new Set()).add(r.force));
  return out;
}

/** The forces loaded (any month), for a note on a force that is not. */
async function forcesLoaded(conn: DuckDBConnection): Promise<string[]> {
  return (await query<{ force: string }>(conn, `SELECT DISTINCT force FROM ${await forceMonths(conn)} ORDER BY force`)).map((r) => r.force);
}

/**
 * The months of the range held for the area and the note on the others. `what` names the answer's
 * items in the note ("counts" for statistics, "crimes" for the street list).
 */
export async function areaMonths(conn: DuckDBConnection, area: Area, m: MonthRange, cov: Coverage, what: 'by_month' | 'list'): Promise<AreaMonths> {
  if (m.from === null || m.to === null || cov.from === null) return { held: [] };
  if (area.kind === 'force') {
    const loaded = await forcesLoaded(conn);
    if (!loaded.includes(area.force)) {
      return {
        held: [],
        note: `No street file of force '${area.force}' is loaded (forces loaded: ${loaded.join(', ')}): the figures are null, not a count of 0 crimes; ` +
          `'publicdata sync crime --forces ${area.force}' loads it.`,
      };
    }
  }
  const forces = await areaForces(conn, area);
  const held = await heldByMonth(conn, forces, { from: m.from, to: m.to });
  const range = monthsBetween(m.from, m.to);
  const heldMonths = range.filter((x) => held.has(x));
  const missing = range.filter((x) => !held.has(x));
  const effect = what === 'by_month' ? 'left out of by_month, not counted as 0' : 'the list has no crimes of those months';
  if (area.kind !== 'force' && !forces.length) {
    return {
      held: [],
      note:
        `No street row of any force loaded lies in this area in the months held (${cov.from} to ${cov.to}), so the mirror cannot tell ` +
        "whether the area's force is loaded: the answer is empty, not a count of 0 crimes.",
    };
  }
  const who = area.kind === 'force' ? `force '${area.force}'` : `any force with crimes in this area (${forces.join(', ')})`;
  const notes: string[] = [];
  if (missing.length) {
    const share = missing.length === range.length ? (range.length === 1 ? 'the month asked' : `all ${range.length} months asked`) : `${missing.length} of the ${range.length} months asked`;
    const has = area.kind === 'force' ? `; its street files are loaded for ${monthRuns(await forceStreetMonths(conn, area.force))}` : '';
    notes.push(`No street file of ${who} is loaded for ${monthRuns(missing)} (${share}): ${effect}${has}.`);
  }
  const partial = heldMonths.map((x) => [x, forces.filter((f) => !held.get(x)!.has(f))] as const).filter(([, f]) => f.length);
  for (const [x, f] of partial) {
    notes.push(`${x} is held for only some forces with crimes in this area (${f.join(', ')} not loaded): its figures may be short.`);
  }
  return { held: heldMonths, ...(notes.length ? { note: notes.join(' ') } : {}) };
}

/** The street months held for a force, for the outcomes note. */
export async function forceStreetMonths(conn: DuckDBConnection, force: string): Promise<string[]> {
  return (await query<{ month: string }>(conn, `SELECT month FROM ${await forceMonths(conn)} WHERE force = ? ORDER BY month`, [force])).map((r) => r.month);
}
