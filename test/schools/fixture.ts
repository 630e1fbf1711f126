/**
 * Independent readings of the schools fixtures for the tests: a small CSV parser of their own (not the
 * sync's DuckDB reader), Windows-1252 decoded with a table written here, and a grid-to-WGS84 conversion done
 * by hand from Ordnance Survey's published formulas and Helmert parameters (not proj4's datum code).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import proj4 from 'proj4';

export const FIXTURES = join(__dirname, '..', 'fixtures', 'schools');
export const GIAS_REAL = join(FIXTURES, 'gias-edubasealldata-ExampleImportFile.csv');
export const GIAS_GENERATED = join(FIXTURES, 'GENERATED-gias-leeds-rows.csv');
export const MI_REAL = join(FIXTURES, 'ofsted-mi-latest-inspections-28-Feb-2026-leeds-first-40.csv');
export const MI_GRADED_GENERATED = join(FIXTURES, 'GENERATED-ofsted-mi-graded-layout.csv');

export type CsvRow = Record<string, string>;

export function parseCsv(text: string): CsvRow[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cur = '';
  let q = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (q) {
      if (c === '"' && text[i + 1] === '"') { cur += '"'; i++; } else if (c === '"') q = false; else cur += c;
    } else if (c === '"') q = true;
    else if (c === ',') { row.push(cur); cur = ''; } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cur); rows.push(row); row = []; cur = '';
    } else cur += c;
  }
  if (cur !== '' || row.length) { row.push(cur); rows.push(row); }
  const [header, ...data] = rows;
  return data.filter((r) => r.length > 1).map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])));
}

// Windows-1252 0x80-0x9F, written out from the WHATWG index (a second copy, independent of the sync's).
const W1252: Record<number, string> = {
  0x80: '€', 0x82: '‚', 0x83: 'ƒ', 0x84: '„', 0x85: '…', 0x86: '†', 0x87: '‡', 0x88: 'ˆ', 0x89: '‰', 0x8a: 'Š', 0x8b: '‹', 0x8c: 'Œ', 0x8e: 'Ž',
  0x91: '‘', 0x92: '’', 0x93: '“', 0x94: '”', 0x95: '•', 0x96: '–', 0x97: '—', 0x98: '˜', 0x99: '™', 0x9a: 'š', 0x9b: '›', 0x9c: 'œ', 0x9e: 'ž', 0x9f: 'Ÿ',
};
export function read1252(path: string): string {
  const b = readFileSync(path);
  let s = '';
  for (const x of b) s += W1252[x] ?? String.fromCharCode(x);
  return s;
}

export const giasReal = (): CsvRow[] => parseCsv(read1252(GIAS_REAL));
export const giasGenerated = (): CsvRow[] => parseCsv(read1252(GIAS_GENERATED));
export const miReal = (): CsvRow[] => parseCsv(readFileSync(MI_REAL, 'utf8'));
export const miGraded = (): CsvRow[] => parseCsv(read1252(MI_GRADED_GENERATED));

/** dd-mm-yyyy or dd/mm/yyyy → YYYY-MM-DD; blank and NULL → null. */
export function iso(d: string | undefined): string | null {
  if (!d || d === 'NULL') return null;
  const [dd, mm, yyyy] = d.split(/[-/]/);
  return `${yyyy}-${mm}-${dd}`;
}
export const val = (v: string | undefined): string | null => (v === undefined || v.trim() === '' || v === 'NULL' ? null : v);

// ---- grid -> WGS84, by hand -------------------------------------------------------------------------
const AIRY = { a: 6377563.396, b: 6356256.909 };
const GRS80 = { a: 6378137.0, b: 6356752.3141 };
function toCartesian(latDeg: number, lonDeg: number, e: { a: number; b: number }): [number, number, number] {
  const lat = (latDeg * Math.PI) / 180;
  const lon = (lonDeg * Math.PI) / 180;
  const e2 = (e.a ** 2 - e.b ** 2) / e.a ** 2;
  const nu = e.a / Math.sqrt(1 - e2 * Math.sin(lat) ** 2);
  return [nu * Math.cos(lat) * Math.cos(lon), nu * Math.cos(lat) * Math.sin(lon), nu * (1 - e2) * Math.sin(lat)];
}
function toGeodetic([x, y, z]: [number, number, number], e: { a: number; b: number }): [number, number] {
  const e2 = (e.a ** 2 - e.b ** 2) / e.a ** 2;
  const p = Math.sqrt(x * x + y * y);
  let lat = Math.atan2(z, p * (1 - e2));
  for (let i = 0; i < 10; i++) {
    const nu = e.a / Math.sqrt(1 - e2 * Math.sin(lat) ** 2);
    lat = Math.atan2(z + e2 * nu * Math.sin(lat), p);
  }
  return [(lat * 180) / Math.PI, (Math.atan2(y, x) * 180) / Math.PI];
}
/** OS Helmert worked example's parameters (WGS84 → OSGB36), applied in reverse (signs flipped: OSGB36 → WGS84). */
function helmertToWgs84([x, y, z]: [number, number, number]): [number, number, number] {
  const sec = Math.PI / (180 * 3600);
  const tx = 446.448, ty = -125.157, tz = 542.06;
  const rx = 0.1502 * sec, ry = 0.247 * sec, rz = 0.8421 * sec, s = -20.4894e-6;
  return [tx + (1 + s) * x - rz * y + ry * z, ty + rz * x + (1 + s) * y - rx * z, tz - ry * x + rx * y + (1 + s) * z];
}
/** Projection only (Airy 1830, no datum shift): checked against OS's Caister water tower example in osgb.test.ts. */
export const TMERC_AIRY = '+proj=tmerc +lat_0=49 +lon_0=-2 +k=0.9996012717 +x_0=400000 +y_0=-100000 +ellps=airy +units=m +no_defs';
export function gridToWgs84ByHand(e: number, n: number): { latitude: number; longitude: number } {
  const [lon, lat] = proj4(TMERC_AIRY, '+proj=longlat +ellps=airy +no_defs', [e, n]) as [number, number];
  const [la, lo] = toGeodetic(helmertToWgs84(toCartesian(lat, lon, AIRY)), GRS80);
  return { latitude: la, longitude: lo };
}

export function haversineKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const r = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(r(b.latitude - a.latitude) / 2) ** 2 + Math.cos(r(a.latitude)) * Math.cos(r(b.latitude)) * Math.sin(r(b.longitude - a.longitude) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}

/** The latest inspection of a management-information row of the report-card layout, worked out here by comparing dates. */
export function expectedLatest(m: CsvRow): { framework: string; number: string; start: string | null } | null {
  const cands: Array<{ framework: string; number: string | null; start: string | null; rank: number }> = [
    { framework: 'report_card', number: val(m['Inspection number of latest full inspection']), start: iso(m['Inspection start date']), rank: 0 },
    { framework: 'graded', number: val(m['Inspection number of latest OEIF graded inspection']), start: iso(m['Inspection start date of latest OEIF graded inspection']), rank: 1 },
    { framework: 'ungraded', number: val(m['Latest ungraded inspection number']), start: iso(m['Date of latest ungraded inspection']), rank: 2 },
  ].filter((c) => c.number !== null);
  cands.sort((a, b) => ((b.start ?? '') > (a.start ?? '') ? 1 : (b.start ?? '') < (a.start ?? '') ? -1 : a.rank - b.rank));
  const c = cands[0];
  return c ? { framework: c.framework, number: c.number!, start: c.start } : null;
}
