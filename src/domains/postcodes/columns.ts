/**
 * The ONSPD's columns, found by pattern: every edition renames its area columns (`oslaua` up to 2024,
 * `lad25cd` in November 2025, `lad26cd` in August 2026; the renaming table is in docs/places.md). Each field
 * has the patterns of its names; where several columns match (ruc11ind and ruc21ind), the one with the
 * newest two-digit year wins. A field no column matches refuses the edition, naming the field and the
 * patterns looked for.
 */

export interface FieldSpec {
  field: string;
  /** What it is, for the refusal message. */
  what: string;
  patterns: RegExp[];
}

export const FIELDS = [
  { field: 'pcds', what: 'postcode (display form)', patterns: [/^pcds$/] },
  { field: 'dointr', what: 'date of introduction', patterns: [/^dointr$/] },
  { field: 'doterm', what: 'date of termination', patterns: [/^doterm$/] },
  { field: 'east', what: 'grid easting', patterns: [/^oseast1m$/, /^east1m$/] },
  { field: 'north', what: 'grid northing', patterns: [/^osnrth1m$/, /^north1m$/] },
  { field: 'grid', what: 'grid reference quality', patterns: [/^osgrdind$/, /^gridind$/] },
  { field: 'lat', what: 'latitude', patterns: [/^lat$/] },
  { field: 'lng', what: 'longitude', patterns: [/^long$/] },
  { field: 'country', what: 'country', patterns: [/^ctry$/, /^ctry(\d\d)cd$/] },
  { field: 'region', what: 'region', patterns: [/^rgn$/, /^rgn(\d\d)cd$/] },
  { field: 'lad', what: 'local authority district', patterns: [/^oslaua$/, /^lad(\d\d)cd$/] },
  { field: 'ward', what: 'electoral ward', patterns: [/^osward$/, /^wd(\d\d)cd$/] },
  { field: 'parish', what: 'parish', patterns: [/^parish$/, /^parncp(\d\d)cd$/] },
  { field: 'pcon', what: 'parliamentary constituency', patterns: [/^pcon$/, /^pcon(\d\d)cd$/] },
  { field: 'oa21', what: 'output area (2021)', patterns: [/^oa21(cd)?$/] },
  { field: 'lsoa21', what: 'LSOA (2021)', patterns: [/^lsoa21(cd)?$/] },
  { field: 'msoa21', what: 'MSOA (2021)', patterns: [/^msoa21(cd)?$/] },
  { field: 'lsoa11', what: 'LSOA (2011)', patterns: [/^lsoa11(cd)?$/] },
  { field: 'pfa', what: 'police force area', patterns: [/^pfa$/, /^pfa(\d\d)cd$/] },
  { field: 'imd', what: 'index of multiple deprivation rank', patterns: [/^imd$/, /^imd(\d\d)ind$/] },
  { field: 'ru', what: 'rural-urban classification', patterns: [/^ru(\d\d)ind$/, /^ruc(\d\d)ind$/] },
] as const satisfies readonly FieldSpec[];

export type Field = (typeof FIELDS)[number]['field'];
export type Found = Record<Field, string>;

/** The column of each field in a header, or the fields no column matches. */
export function findColumns(header: readonly string[]): { found: Found } | { missing: FieldSpec[] } {
  const found: Partial<Record<Field, string>> = {};
  const missing: FieldSpec[] = [];
  for (const f of FIELDS) {
    let best: { col: string; year: number } | undefined;
    for (const col of header) {
      const lc = col.trim().toLowerCase();
      for (const re of f.patterns) {
        const m = re.exec(lc);
        if (!m) continue;
        // a name without a year (the 2024 layout) ranks below any with one; two-digit years are 20xx
        const year = m[1] ? Number(m[1]) : -1;
        if (!best || year > best.year) best = { col, year };
      }
    }
    if (best) found[f.field] = best.col;
    else missing.push(f);
  }
  return missing.length ? { missing } : { found: found as Found };
}

/** The refusal message of an edition without some fields. */
export function missingMessage(file: string, missing: readonly FieldSpec[]): string {
  return `postcodes: ${file} has no column for ${missing.map((f) => `${f.field} (${f.what}; looked for ${f.patterns.map((p) => p.source.replace(/^\^|\$$/g, '')).join(' or ')})`).join(', ')}; ` +
    'this is not an ONS Postcode Directory national CSV in a layout publicdata knows (docs/places.md lists the column names of each edition)';
}
