/**
 * One EstablishmentDetail of an FSA file as one row of the mirror's `establishments` table. Every
 * normalisation is listed, with its source, in docs/food-hygiene.md ("Normalisations"):
 *  - RatingValue: the spellings of data/food-hygiene/rating-values.json onto the spec's values
 *    (`AwaitingInspection` and `Awaiting Inspection` are `awaiting_inspection`); the published string is
 *    kept in `rating_published`, the RatingKey as published in `rating_key`;
 *  - empty elements (`<Scores />`, `<Geocode />`, `<RatingDate xsi:nil="true" />`) are NULL;
 *  - PostCode, upper-cased with one space before the inward code; when the file has none, an address
 *    line that is exactly a postcode gives it (`postcode_source` names the element; the line stays);
 *  - SchemeType lower-cased; NewRatingPending True/False as a boolean;
 *  - the geocode kept only when both numbers parse and lie on the globe; `cell`, its 0.01-degree grid
 *    cell, orders the table on disk.
 */
import { loadJsonFile } from '../../data.js';
import { gridCell } from '../../mirror/geo.js';

/** The staged columns, in file order, with their DuckDB types (sync.ts reads the staged CSV with these). */
export const COLUMNS = [
  ['fhrs_id', 'BIGINT'],
  ['la_business_id', 'VARCHAR'],
  ['business_name', 'VARCHAR'],
  ['business_type', 'VARCHAR'],
  ['business_type_id', 'INTEGER'],
  ['address_line_1', 'VARCHAR'],
  ['address_line_2', 'VARCHAR'],
  ['address_line_3', 'VARCHAR'],
  ['address_line_4', 'VARCHAR'],
  ['postcode', 'VARCHAR'],
  ['postcode_published', 'VARCHAR'],
  ['postcode_source', 'VARCHAR'],
  ['rating_value', 'VARCHAR'],
  ['rating_numeric', 'TINYINT'],
  ['rating_published', 'VARCHAR'],
  ['rating_key', 'VARCHAR'],
  ['rating_date', 'DATE'],
  ['la_code', 'VARCHAR'],
  ['la_name', 'VARCHAR'],
  ['la_website', 'VARCHAR'],
  ['la_email', 'VARCHAR'],
  ['hygiene', 'INTEGER'],
  ['structural', 'INTEGER'],
  ['confidence_in_management', 'INTEGER'],
  ['scheme', 'VARCHAR'],
  ['new_rating_pending', 'BOOLEAN'],
  ['latitude', 'DOUBLE'],
  ['longitude', 'DOUBLE'],
  ['cell', 'INTEGER'],
  ['right_to_reply', 'VARCHAR'],
  ['source_code', 'VARCHAR'],
] as const;

interface RatingEntry {
  value: string;
  numeric: number | null;
  published: string[];
}

let ratingMap: Map<string, RatingEntry> | undefined;
const ratingKey = (s: string): string => s.toLowerCase().replace(/[\s_-]+/g, '');

/** Published RatingValue spellings (case, spaces, underscores ignored) -> the spec's value and its FHRS number. */
export function ratingTable(): Map<string, RatingEntry> {
  if (!ratingMap) {
    const data = loadJsonFile<{ values: RatingEntry[] }>('food-hygiene/rating-values.json');
    ratingMap = new Map();
    for (const v of data.values) {
      ratingMap.set(ratingKey(v.value), v);
      for (const p of v.published) ratingMap.set(ratingKey(p), v);
    }
  }
  return ratingMap;
}

/** The spec's value of a published RatingValue, or undefined when it is not one the FSA documents. */
export function normaliseRating(published: string): { value: string; numeric: number | null } | undefined {
  const hit = ratingTable().get(ratingKey(published));
  return hit ? { value: hit.value, numeric: hit.numeric } : undefined;
}

const POSTCODE_RE = /^([A-Z]{1,2}[0-9][A-Z0-9]?) ?([0-9][A-Z]{2})$/;

/** A full UK postcode in the usual form (`TS6 6UD`), or undefined when `s` is not exactly one. */
export function normalisePostcode(s: string): string | undefined {
  const m = POSTCODE_RE.exec(s.trim().toUpperCase().replace(/\s+/g, ' '));
  return m ? `${m[1]} ${m[2]}` : undefined;
}

const INT_RE = /^-?\d+$/;
const DATE_RE = /^(\d{4}-\d{2}-\d{2})(T[\d:.]+)?$/;

const blank = (s: string | undefined): string | null => {
  if (s === undefined) return null;
  const t = s.trim();
  return t === '' ? null : t;
};
const int = (s: string | undefined): number | null => {
  const t = blank(s);
  return t !== null && INT_RE.test(t) ? Number(t) : null;
};
const num = (s: string | undefined): number | null => {
  const t = blank(s);
  if (t === null) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
};

const NO_LINES: readonly (string | null)[] = [];

/**
 * The postcode and where it came from: the published PostCode (normalised, else as published in capitals),
 * else the last address line that is a whole postcode (some authorities put it there).
 */
function postcodeOf(published: string | null, lines: readonly (string | null)[]): { postcode: string | null; source: string | null } {
  if (published !== null) return { postcode: normalisePostcode(published) ?? published.toUpperCase(), source: 'PostCode' };
  for (let i = lines.length - 1; i >= 0; i--) {
    const pc = lines[i] ? normalisePostcode(lines[i]!) : undefined;
    if (pc) return { postcode: pc, source: `AddressLine${i + 1}` };
  }
  return { postcode: null, source: null };
}

/** What `csvOfEstablishment` found besides the line (one object, reused by the caller). */
export interface CsvExtras {
  /** The RatingValue when it is not one of data/food-hygiene/rating-values.json (kept, slugged). */
  unknownRating: string | undefined;
}

/** Published RatingValue (trimmed) -> its table entry, or null for a value the FSA does not document; bounded. */
const ratingSeen = new Map<string, RatingEntry | null>();
function ratingOf(published: string): RatingEntry | null {
  let hit = ratingSeen.get(published);
  if (hit === undefined) {
    hit = ratingTable().get(ratingKey(published)) ?? null;
    if (ratingSeen.size < 256) ratingSeen.set(published, hit);
  }
  return hit;
}

const DIGITS_RE = /^\d+$/;
/** A text field: quoted, its quotes doubled; NULL (empty, unquoted) for null. */
const text = (v: string | null): string => (v === null ? '' : v.includes('"') ? `"${v.replace(/"/g, '""')}"` : `"${v}"`);
const numberField = (v: number | null): string => (v === null ? '' : String(v));

/**
 * One establishment as its staging CSV line (the COLUMNS in order; text quoted, quotes doubled; NULL an
 * empty unquoted field), or a reject reason; `sourceCode`: the authority whose file it came from. Written
 * in one step, with no row array (half of the per-establishment work over the bare parse was building,
 * spreading and walking one); test/food-hygiene/normalise.test.ts holds it to a two-step reference
 * (normalise-oracle.ts) byte for byte over the fixtures and generated records. `extras.unknownRating` is
 * set (or cleared) per call.
 */
export function csvOfEstablishment(e: Record<string, string>, sourceCode: string, extras: CsvExtras): string | { reject: string } {
  const id = blank(e.FHRSID);
  if (id === null || !DIGITS_RE.test(id) || !Number.isSafeInteger(Number(id))) return { reject: `FHRSID '${e.FHRSID ?? ''}' is not a whole number` };
  const l1 = blank(e.AddressLine1);
  const l2 = blank(e.AddressLine2);
  const l3 = blank(e.AddressLine3);
  const l4 = blank(e.AddressLine4);
  const published = blank(e.PostCode);
  const { postcode, source } = postcodeOf(published, published === null ? [l1, l2, l3, l4] : NO_LINES);
  const ratingPublished = blank(e.RatingValue);
  const rating = ratingPublished === null ? null : ratingOf(ratingPublished);
  let ratingValue: string | null = rating?.value ?? null;
  extras.unknownRating = undefined;
  if (ratingPublished !== null && !rating) {
    extras.unknownRating = ratingPublished;
    ratingValue = ratingPublished.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
  }
  const dateM = DATE_RE.exec(blank(e.RatingDate) ?? '');
  let lat = num(e['Geocode.Latitude']);
  let lng = num(e['Geocode.Longitude']);
  if (lat === null || lng === null || Math.abs(lat) > 90 || Math.abs(lng) > 180) lat = lng = null;
  const pending = blank(e.NewRatingPending)?.toLowerCase();
  const scheme = blank(e.SchemeType);
  return `${Number(id)},${text(blank(e.LocalAuthorityBusinessID))},${text(blank(e.BusinessName))},${text(blank(e.BusinessType))},${numberField(int(e.BusinessTypeID))},`
    + `${text(l1)},${text(l2)},${text(l3)},${text(l4)},${text(postcode)},${text(published)},${text(source)},`
    + `${text(ratingValue)},${numberField(rating?.numeric ?? null)},${text(ratingPublished)},${text(blank(e.RatingKey))},${text(dateM ? dateM[1]! : null)},`
    + `${text(blank(e.LocalAuthorityCode))},${text(blank(e.LocalAuthorityName))},${text(blank(e.LocalAuthorityWebSite))},${text(blank(e.LocalAuthorityEmailAddress))},`
    + `${numberField(int(e['Scores.Hygiene']))},${numberField(int(e['Scores.Structural']))},${numberField(int(e['Scores.ConfidenceInManagement']))},`
    + `${text(scheme === null ? null : scheme.toLowerCase())},${pending === 'true' ? 'true' : pending === 'false' ? 'false' : ''},`
    + `${numberField(lat)},${numberField(lng)},${lat !== null && lng !== null ? gridCell(lat, lng) : ''},${text(blank(e.RightToReply))},${text(sourceCode)}\n`;
}
