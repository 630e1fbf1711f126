/**
 * The area page as one self-contained HTML file (`publicdata area "LS8 3BS" --html report.html`): the
 * page's own script and styles (src/pages/assets, the same files `serve` sends to /area/{postcode}) inlined,
 * the answers embedded as JSON, and a Content-Security-Policy that lets the file load nothing at all (its
 * one script and one style allowed by their SHA-256, no connection): it renders the same with the network
 * off, to attach or share. docs/serve.md "Pages".
 *
 * The answers are gathered as the served page gathers them (src/pages/assets/area.js, `load`): the area
 * route, then the requests each section lists under `map` (its own domain chose them: the crime section's
 * street crimes of its circle and months, …), every page of each up to POINT_PAGES. The page's script reads
 * the same field; no request path is written here (the browser test compares the file with the served page).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { haversineKm } from '../mirror/geo.js';
import { ASSETS_DIR } from './site.js';

/** One GET of a request path with its query; the caller runs it (execute, or HTTP). */
export type GetJson = (pathWithQuery: string) => Promise<{ status: number; body: any }>;

export interface PointLayer {
  /** The request path(s) of the layer (collisions: one per year). */
  path: string | string[];
  records: unknown[];
  total: number | null;
  error?: string;
}

/** What the page draws: the area answer, the request path it came from, and the map's point layers. */
export interface AreaDocument {
  path: string;
  area: { data: any; meta?: any };
  /** Layer name (a section's `map`: crime, schools, food, collisions, …) -> its points. */
  points: Record<string, PointLayer>;
}

/** A map layer as an area answer's section declares it (`map`: src/domains/area-section.ts). */
export interface MapLayer {
  layer: string;
  paths: string[];
  clip?: boolean;
}

const PER_PAGE = 100;
export const POINT_PAGES = 20;

/**
 * The point layers of an area answer's map: what each `ok` section lists under `map` (its own domain says
 * which requests hold its points; the page's script reads the same field). None without a location.
 */
export function mapLayers(data: any): MapLayer[] {
  if (!data?.postcode?.location) return [];
  return Object.values((data.sections ?? {}) as Record<string, any>).flatMap((s) => (s?.status === 'ok' && Array.isArray(s.map) ? (s.map as MapLayer[]) : []));
}

async function allPages(get: GetJson, path: string): Promise<PointLayer> {
  let records: unknown[] = [];
  for (let n = 1; ; n++) {
    const r = await get(`${path}&per_page=${PER_PAGE}&page=${n}`);
    if (r.status !== 200) return { path, records, total: null, error: r.body?.error?.message ?? `status ${r.status}` };
    records = records.concat(r.body.data ?? []);
    const pg = r.body.pagination ?? { total_pages: 1, total: records.length };
    if (n >= pg.total_pages || n >= POINT_PAGES) return { path, records, total: pg.total };
  }
}

/** The area answer for `areaPath` (e.g. `/v1/area/LS8%203BS?radius_km=1`) and its map's points. */
export async function areaDocument(get: GetJson, areaPath: string): Promise<AreaDocument> {
  const r = await get(areaPath);
  if (r.status !== 200) throw Object.assign(new Error(r.body?.error?.message ?? `status ${r.status}`), { status: r.status, body: r.body });
  const data = r.body.data;
  const points: AreaDocument['points'] = {};
  const loc = data.postcode?.location;
  const radius = Number(r.body.meta?.radius_km ?? 1); // the circle of every radius section
  for (const l of mapLayers(data)) {
    if (l.paths.length === 1 && !l.clip) {
      points[l.layer] = await allPages(get, l.paths[0]!);
      continue;
    }
    // several requests as one layer; a clipped layer keeps only the records in the circle (the file stays small)
    const layers = [];
    for (const p of l.paths) layers.push(await allPages(get, p));
    const near = (x: any) => x.latitude !== null && x.latitude !== undefined && haversineKm(loc.latitude, loc.longitude, Number(x.latitude), Number(x.longitude)) <= radius;
    const records = layers.flatMap((x) => x.records);
    const error = layers.find((x) => x.error)?.error;
    points[l.layer] = { path: l.paths, records: l.clip ? records.filter(near) : records, total: null, ...(error ? { error } : {}) };
  }
  return { path: areaPath, area: r.body, points };
}

const sha256 = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON safe inside <script>: no `<` (so no `</script>`), and no U+2028/2029. */
const scriptJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/** The self-contained page of an area document; `generated` is said in the footer (e.g. the time and the mirror). */
export function renderAreaHtml(doc: AreaDocument, generated: string): string {
  const css = ['pages.css', 'area.css'].map((f) => readFileSync(join(ASSETS_DIR, f), 'utf8')).join('\n');
  const js = readFileSync(join(ASSETS_DIR, 'area.js'), 'utf8');
  const csp = `default-src 'none'; script-src ${sha256(js)}; style-src ${sha256(css)}; img-src data:; base-uri 'none'; form-action 'none'`;
  const pc = String(doc.area.data?.postcode?.postcode ?? 'Area');
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(pc)}: area profile · publicdata</title>
<link rel="icon" href="data:,">
<style>${css}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="bar"><span class="brand">publicdata</span></header>
<main id="main" class="area" aria-busy="true"><p class="status" role="status">Drawing…</p><noscript><p>This report draws its map, charts and tables with JavaScript.</p></noscript></main>
<footer class="foot"><p>${escapeHtml(generated)}. Every figure names the request path behind it (run it with <code>publicdata api GET …</code>). Contains public sector information licensed under the Open Government Licence v3.0.</p></footer>
<script type="application/json" id="area-data">${scriptJson(doc)}</script>
<script>${js}</script>
</body>
</html>
`;
}
