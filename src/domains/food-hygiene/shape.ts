/**
 * Mirror rows as the spec's establishment objects, the meta every food-hygiene answer carries, and the
 * postcode filter (shared by search and statistics).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { ApiError } from '../../contract/errors.js';
import type { Meta } from '../../contract/types.js';
import { provenanceMeta, query, queryOne, type Row, type Where } from '../../mirror/db.js';
import { postcodeCondition } from '../../mirror/postcode.js';
import { hasTable } from '../../mirror/tables.js';
import { FOOD_HYGIENE_INFO } from './datasets.js';

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const int = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export interface Establishment {
  fhrs_id: number;
  business_name: string | null;
  business_type: string | null;
  business_type_id: number | null;
  address: { lines: string[]; postcode: string | null };
  local_authority: { code: string; name: string | null };
  scheme: string | null;
  rating: { value: string | null; numeric: number | null; date: string | null; new_rating_pending: boolean | null };
  scores: { hygiene: number | null; structural: number | null; confidence_in_management: number | null } | null;
  location: { latitude: number; longitude: number } | null;
  distance_km?: number;
}

export function toEstablishment(r: Row): Establishment {
  const lines = [r.address_line_1, r.address_line_2, r.address_line_3, r.address_line_4].filter((l) => l !== null && l !== undefined).map(String);
  const scores = r.hygiene === null && r.structural === null && r.confidence_in_management === null
    ? null
    : { hygiene: int(r.hygiene), structural: int(r.structural), confidence_in_management: int(r.confidence_in_management) };
  const e: Establishment = {
    fhrs_id: Number(r.fhrs_id),
    business_name: str(r.business_name),
    business_type: str(r.business_type),
    business_type_id: int(r.business_type_id),
    address: { lines, postcode: str(r.postcode) },
    local_authority: { code: String(r.la_code ?? r.source_code), name: str(r.la_name) },
    scheme: str(r.scheme),
    rating: {
      value: str(r.rating_value),
      numeric: int(r.rating_numeric),
      date: str(r.rating_date),
      new_rating_pending: r.new_rating_pending === null || r.new_rating_pending === undefined ? null : Boolean(r.new_rating_pending),
    },
    scores,
    location: r.latitude === null || r.latitude === undefined ? null : { latitude: Number(r.latitude), longitude: Number(r.longitude) },
  };
  // rounded to the metre in SQL (src/mirror/geo.ts radiusSearch)
  if (r.distance_km !== undefined && r.distance_km !== null) e.distance_km = Number(r.distance_km);
  return e;
}

/** The detail: the establishment plus the authority's contact, the business id, the right to reply and the published spellings. */
export function toDetail(r: Row): Record<string, unknown> {
  const e = toEstablishment(r);
  return {
    ...e,
    local_authority_business_id: str(r.la_business_id),
    address: { ...e.address, postcode_source: str(r.postcode_source), postcode_published: str(r.postcode_published) },
    local_authority: { ...e.local_authority, website: str(r.la_website), email: str(r.la_email) },
    rating: { ...e.rating, published: str(r.rating_published), key: str(r.rating_key) },
    right_to_reply: str(r.right_to_reply),
  };
}

const scopes = new WeakMap<DuckDBConnection, string>();

/**
 * meta of a food-hygiene answer: provenance (as_of: the newest extract date of the files loaded), the
 * caveat the FSA's terms ask for, and a note when the mirror holds only some authorities.
 */
export async function foodMeta(conn: DuckDBConnection, extra: Record<string, unknown> = {}, authorities?: AuthorityMatch): Promise<Meta> {
  const scope = await scopeOfMirror(conn);
  const m = await provenanceMeta(FOOD_HYGIENE_INFO, conn, extra);
  const note = authorities?.notLoaded.length
    ? notLoadedNote(authorities.notLoaded, scope, authorities.loaded.length > 0)
    : scope !== '*' ? `The mirror holds only the authorities ${scope} (synced with --authorities); run 'publicdata sync food-hygiene' for all of them.` : undefined;
  // an answer about authorities none of whose files is loaded rests on no file: it says so, not the others' dates
  const from = authorities && !authorities.loaded.length
    ? `open data (no file of ${listedNames(authorities.notLoaded)} is loaded; the mirror is a static copy, not the live service)`
    : `open data ${await extractDates(conn, authorities?.loaded)} (a static copy, not the live service)`;
  return {
    ...m,
    caveat: `From the Food Standards Agency's ${from}: ratings.food.gov.uk is the authoritative current rating.`,
    attribution: FOOD_HYGIENE_INFO.attribution,
    ...(note ? { note } : {}),
  };
}

/** The sync's `--authorities` ('*': every listed authority; else the codes, comma-separated). */
async function scopeOfMirror(conn: DuckDBConnection): Promise<string> {
  let scope = scopes.get(conn);
  if (scope === undefined) {
    scope = (await queryOne<{ a: string }>(conn, 'SELECT authorities AS a FROM scope').catch(() => undefined))?.a ?? '*';
    scopes.set(conn, scope);
  }
  return scope;
}

/** `Aberdeen City (760), River Tees (648)`: the first five, and how many more. */
const listedNames = (listed: readonly ListedRef[]) =>
  listed.slice(0, 5).map((a) => `${a.name ?? a.code} (${a.code})`).join(', ') + (listed.length > 5 ? ` and ${listed.length - 5} more` : '');

/**
 * What to say of listed authorities the mirror does not hold: the sync that adds them to those it holds
 * (a sync with other `--authorities` replaces the scope, so the command names the ones held as well).
 */
function notLoadedNote(listed: readonly ListedRef[], scope: string, partial: boolean): string {
  const names = listedNames(listed);
  const one = listed.length === 1;
  const codes = scope === '*' ? undefined : [...new Set([...scope.split(','), ...listed.map((a) => a.code)])].sort((a, b) => Number(a) - Number(b));
  const figures = partial ? `the figures leave ${one ? 'it' : 'them'} out` : `no figures for ${one ? 'it' : 'them'} here, not a count of 0`;
  return `${names} ${one ? 'is' : 'are'} on the FSA's list but not loaded: ${figures}. ${
    codes ? `'publicdata sync food-hygiene --authorities ${codes.join(',')}' adds ${one ? 'it' : 'them'} to those held.` : `'publicdata sync food-hygiene' loads every listed authority (${one ? 'its' : 'their'} file may have been rejected: 'publicdata mirror status' says).`}`;
}

/**
 * When the files were extracted: each authority publishes its own file with its own ExtractDate, so an
 * answer about named authorities gives theirs ("of Waverley extracted 2020-11-13"), and one about all of
 * them the range ("extracted 2020-09-15 to 2020-11-13, by authority: ...").
 */
async function extractDates(conn: DuckDBConnection, authorities?: readonly AuthorityRef[]): Promise<string> {
  if (authorities?.length) {
    const each = authorities.slice(0, 5).map((a) => `${a.name ?? a.code} (extracted ${a.extract_date ?? 'on an unknown date'})`);
    const more = authorities.length > 5 ? ` and ${authorities.length - 5} more (publicdata food-hygiene authorities gives each one's date)` : '';
    return `${authorities.length === 1 ? 'file' : 'files'} of ${each.join(', ')}${more}`;
  }
  let range = ranges.get(conn);
  if (range === undefined) {
    const r = await queryOne<{ lo: string | null; hi: string | null }>(
      conn, "SELECT strftime(min(extract_date), '%Y-%m-%d') AS lo, strftime(max(extract_date), '%Y-%m-%d') AS hi FROM authorities",
    ).catch(() => undefined);
    range = !r?.lo ? 'files' : r.lo === r.hi ? `files extracted ${r.lo}` : `files extracted ${r.lo} to ${r.hi}, by authority (publicdata food-hygiene authorities gives each one's date)`;
    ranges.set(conn, range);
  }
  return range;
}
const ranges = new WeakMap<DuckDBConnection, string>();

/**
 * The postcode filter (already checked against the route's pattern), by the rule every domain shares
 * (src/mirror/postcode.ts): a full postcode exactly; an outward code (LS6) that district and its lettered
 * sub-districts only, not LS60; an area (LS) its districts; a sector (LS6 1) by prefix.
 */
export function addPostcodeFilter(where: Where, raw: string): void {
  const c = postcodeCondition(raw);
  where.add(c.sql, ...c.params);
}

/**
 * The authority filter: an FSA code (digits) exactly, else a case-insensitive substring of the authority's
 * name in the list or of the name its file gives (626: 'Hull and Goole Port').
 */
/** An authority loaded (the mirror's `authorities`). */
export interface AuthorityRef {
  code: string;
  name: string | null;
  extract_date: string | null;
}

/** The authorities loaded that an authority filter selects (the same rule as addAuthorityFilter), by name. */
export async function matchingAuthorities(conn: DuckDBConnection, raw: string): Promise<AuthorityRef[]> {
  const q = raw.trim();
  const cols = "code, name, strftime(extract_date, '%Y-%m-%d') AS extract_date";
  const rows = /^\d+$/.test(q)
    ? await query(conn, `SELECT ${cols} FROM authorities WHERE code = ?`, [String(Number(q))])
    : await query(
      conn,
      `SELECT ${cols} FROM authorities
       WHERE contains(lower(name), lower(?)) OR code IN (SELECT DISTINCT source_code FROM establishments WHERE contains(lower(la_name), lower(?)))
       ORDER BY lower(name), CAST(code AS INTEGER)`,
      [q, q],
    );
  return rows.map((r) => ({ code: String(r.code), name: (r.name as string | null) ?? null, extract_date: (r.extract_date as string | null) ?? null }));
}

/** An authority on the FSA's list the mirror holds no file of (listed_authorities: every authority of the list synced). */
export interface ListedRef {
  code: string;
  name: string | null;
}

/** What an authority filter names: the authorities loaded it selects, else those of the FSA's list it names. */
export interface AuthorityMatch {
  loaded: AuthorityRef[];
  notLoaded: ListedRef[];
}

/**
 * The authorities an authority filter names. One on the FSA's list but not loaded answers with no figures
 * and the sync that loads it (issue 37: "an area not loaded has null figures and says which sync loads it");
 * one that matches nothing, loaded or listed, is 404 naming the command that lists them.
 */
export async function knownAuthority(conn: DuckDBConnection, raw: string): Promise<AuthorityMatch> {
  const q = raw.trim();
  const loaded = await matchingAuthorities(conn, q);
  const held = new Set(loaded.map((a) => a.code));
  const listed = await listedAuthorities(conn, q);
  const notLoaded = listed.filter((a) => !held.has(a.code));
  if (loaded.length || notLoaded.length) return { loaded, notLoaded };
  // the FSA's list is known and names none: no sync would find it
  if (await listKnown(conn)) {
    throw new ApiError(404, 'not_found', `No local authority matches '${q}', loaded or on the FSA's list: 'publicdata food-hygiene authorities' lists those loaded (GET /v1/food-hygiene/authorities), by code (314) or name.`);
  }
  // a sync with other codes replaces those held: the command to add one names them too
  const scope = await scopeOfMirror(conn);
  const another = scope === '*' ? "'publicdata sync food-hygiene' loads every authority the FSA lists" : `'publicdata sync food-hygiene --authorities ${scope},CODE' adds another to those held`;
  throw new ApiError(404, 'not_found', `No local authority loaded matches '${q}': 'publicdata food-hygiene authorities' lists those loaded (GET /v1/food-hygiene/authorities), by code (314) or name; ${another}.`);
}

/** Whether the mirror holds the FSA's list (a sync read it; not one of XML files alone, nor an older mirror). */
async function listKnown(conn: DuckDBConnection): Promise<boolean> {
  if (!(await hasTable(conn, 'listed_authorities'))) return false;
  return Number((await queryOne<{ n: number }>(conn, 'SELECT count(*) AS n FROM listed_authorities'))?.n ?? 0) > 0;
}

/** The FSA list's authorities (loaded or not) that a filter names: by code, or by part of the name. */
async function listedAuthorities(conn: DuckDBConnection, q: string): Promise<ListedRef[]> {
  // a mirror synced before the list was kept has no such table: nothing is known of other authorities
  if (!(await hasTable(conn, 'listed_authorities'))) return [];
  const rows = /^\d+$/.test(q)
    ? await query(conn, 'SELECT code, name FROM listed_authorities WHERE code = ?', [String(Number(q))])
    : await query(conn, 'SELECT code, name FROM listed_authorities WHERE contains(lower(name), lower(?)) ORDER BY lower(name), CAST(code AS INTEGER)', [q]);
  return rows.map((r) => ({ code: String(r.code), name: (r.name as string | null) ?? null }));
}

export function addAuthorityFilter(where: Where, raw: string): void {
  const q = raw.trim();
  if (/^\d+$/.test(q)) where.add('source_code = ?', String(Number(q)));
  else {
    where.add(
      '(source_code IN (SELECT code FROM authorities WHERE contains(lower(name), lower(?))) OR contains(lower(la_name), lower(?)))',
      q, q,
    );
  }
}
