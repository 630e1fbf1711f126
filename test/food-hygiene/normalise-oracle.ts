/**
 * The two-step normalisation the sync's one-step staging line (`csvOfEstablishment`) replaced: an
 * establishment as a row of COLUMNS, then the row as a CSV line. Kept here, written out on its own with
 * its own small helpers, as the independent reference normalise.test.ts compares the production line
 * with (byte for byte, rejects and unknown ratings included). Not used by the sync.
 */
import { COLUMNS, normalisePostcode, normaliseRating } from '../../src/domains/food-hygiene/normalise.js';
import { gridCell } from '../../src/mirror/geo.js';

type Cell = string | number | boolean | null;

const DATE_RE = /^(\d{4}-\d{2}-\d{2})(T[\d:.]+)?$/;
const blank = (s: string | undefined): string | null => {
  const t = s?.trim();
  return t ? t : null;
};
const int = (s: string | undefined): number | null => {
  const t = blank(s);
  return t !== null && /^-?\d+$/.test(t) ? Number(t) : null;
};
const num = (s: string | undefined): number | null => {
  const t = blank(s);
  if (t === null) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
};

export interface Normalised {
  row: Cell[];
  /** The RatingValue when it is not one of data/food-hygiene/rating-values.json (kept, slugged). */
  unknownRating?: string;
}

/** One establishment as a row of COLUMNS, or a reject reason. `sourceCode`: the authority whose file it came from. */
export function normaliseEstablishment(e: Record<string, string>, sourceCode: string): Normalised | { reject: string } {
  const id = blank(e.FHRSID);
  if (id === null || !/^\d+$/.test(id) || !Number.isSafeInteger(Number(id))) return { reject: `FHRSID '${e.FHRSID ?? ''}' is not a whole number` };
  const lines = [e.AddressLine1, e.AddressLine2, e.AddressLine3, e.AddressLine4].map(blank);
  const published = blank(e.PostCode);
  let postcode: string | null = null;
  let source: string | null = null;
  if (published !== null) {
    postcode = normalisePostcode(published) ?? published.toUpperCase();
    source = 'PostCode';
  } else {
    for (let i = 3; i >= 0; i--) {
      const pc = lines[i] ? normalisePostcode(lines[i]!) : undefined;
      if (pc) {
        postcode = pc;
        source = `AddressLine${i + 1}`;
        break;
      }
    }
  }
  const ratingPublished = blank(e.RatingValue);
  const rating = ratingPublished === null ? undefined : normaliseRating(ratingPublished);
  let unknownRating: string | undefined;
  let ratingValue: string | null = rating?.value ?? null;
  if (ratingPublished !== null && !rating) {
    unknownRating = ratingPublished;
    ratingValue = ratingPublished.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
  }
  const dateM = DATE_RE.exec(blank(e.RatingDate) ?? '');
  let lat = num(e['Geocode.Latitude']);
  let lng = num(e['Geocode.Longitude']);
  if (lat === null || lng === null || Math.abs(lat) > 90 || Math.abs(lng) > 180) lat = lng = null;
  const pending = blank(e.NewRatingPending)?.toLowerCase();
  const row: Cell[] = [
    Number(id), blank(e.LocalAuthorityBusinessID), blank(e.BusinessName), blank(e.BusinessType), int(e.BusinessTypeID),
    ...lines, postcode, published, source,
    ratingValue, rating?.numeric ?? null, ratingPublished, blank(e.RatingKey), dateM ? dateM[1]! : null,
    blank(e.LocalAuthorityCode), blank(e.LocalAuthorityName), blank(e.LocalAuthorityWebSite), blank(e.LocalAuthorityEmailAddress),
    int(e['Scores.Hygiene']), int(e['Scores.Structural']), int(e['Scores.ConfidenceInManagement']),
    blank(e.SchemeType)?.toLowerCase() ?? null,
    pending === 'true' ? true : pending === 'false' ? false : null,
    lat, lng, lat !== null && lng !== null ? gridCell(lat, lng) : null,
    blank(e.RightToReply), sourceCode,
  ];
  if (row.length !== COLUMNS.length) throw new Error(`oracle: ${row.length} cells for ${COLUMNS.length} columns`);
  return unknownRating ? { row, unknownRating } : { row };
}

/** One CSV line of a row (RFC 4180 quoting; NULL as an empty unquoted field, text always quoted). */
export function csvLine(row: readonly Cell[]): string {
  let s = '';
  for (let i = 0; i < row.length; i++) {
    if (i) s += ',';
    const v = row[i];
    if (v === null || v === undefined) continue;
    if (typeof v === 'string') s += `"${v.includes('"') ? v.replace(/"/g, '""') : v}"`;
    else s += String(v);
  }
  return `${s}\n`;
}
