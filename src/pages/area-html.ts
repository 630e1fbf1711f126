/**
 * The area page as one self-contained HTML file (`publicdata area "LS8 3BS" --html report.html`): the
 * page's own script and styles (src/pages/assets, the same files `serve` sends to /area/{postcode}) inlined,
 * the answers embedded as JSON, and a Content-Security-Policy that lets the file load nothing at all (its
 * one script and one style allowed by their SHA-256, no connection): it renders the same with the network
 * off, to attach or share. docs/serve.md "Pages".
 *
 * The answers are gathered as the served page gathers them (src/pages/assets/area.js, `load`): the area
 * route, then each point route of the map (crime street, schools, food hygiene) within the sections'
 * circle and months, every page of it up to POINT_PAGES. Kept in step with area.js's `pointPaths`/`pages`
 * (the browser test compares the file with the served page).
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
  points: Partial<Record<Layer, PointLayer>>;
}

type Layer = 'crime' | 'schools' | 'food' | 'collisions';
type LayerPaths = { crime?: string; schools?: string; food?: string; collisions?: string[] };

const PER_PAGE = 100;
export const POINT_PAGES = 20;

/** The point routes of an area answer's map (the same circle, and the crime section's months). */
export function pointPaths(data: any): LayerPaths {
  const loc = data?.postcode?.location;
  const secs = data?.sections ?? {};
  if (!loc) return {};
  const ok = (n: string) => secs[n]?.status === 'ok';
  const at = `lat=${loc.latitude}&lng=${loc.longitude}`;
  const out: LayerPaths = {};
  if (ok('crime')) {
    const m = secs.crime.months ?? {};
    out.crime = `/v1/crime/street?${at}&radius_km=${secs.crime.radius_km}${m.from ? `&month_from=${m.from}&month_to=${m.to}` : ''}`;
  }
  if (ok('schools')) out.schools = `/v1/schools?${at}&radius_km=${secs.schools.radius_km}`;
  if (ok('food_hygiene')) out.food = `/v1/food-hygiene/establishments?${at}&radius_km=${secs.food_hygiene.radius_km}&sort=distance`;
  if (ok('road_safety')) out.collisions = collisionPaths(secs.road_safety.source);
  return out;
}

/**
 * The road safety section's figures come from `/v1/vehicles/road-safety/nearby/summary` (its `source`); the
 * map asks the records behind them, the same query on `/v1/vehicles/road-safety/nearby` (same circle, same
 * default years), without paging.
 */
function collisionPaths(source: unknown): string[] {
  const list = Array.isArray(source) ? source : typeof source === 'string' ? [source] : [];
  const out = new Set<string>();
  for (const p of list as string[]) {
    if (!p.startsWith('/v1/vehicles/road-safety/nearby/summary?')) continue;
    const q = new URLSearchParams(p.slice(p.indexOf('?') + 1));
    q.delete('per_page');
    q.delete('page');
    out.add(`/v1/vehicles/road-safety/nearby?${q}`);
  }
  return [...out];
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
  const { collisions, ...single } = pointPaths(data);
  const points: AreaDocument['points'] = {};
  for (const [name, p] of Object.entries(single) as [Layer, string][]) points[name] = await allPages(get, p);
  if (collisions) {
    // the collisions of the circle (the route's own radius search; the circle test below keeps the drawing honest)
    const loc = data.postcode.location;
    const radius = Number(data.sections.road_safety.radius_km);
    const layers = [];
    for (const p of collisions) layers.push(await allPages(get, p));
    const near = (x: any) => x.latitude !== null && x.latitude !== undefined && haversineKm(loc.latitude, loc.longitude, Number(x.latitude), Number(x.longitude)) <= radius;
    const error = layers.find((l) => l.error)?.error;
    points.collisions = { path: collisions, records: layers.flatMap((l) => l.records).filter(near), total: null, ...(error ? { error } : {}) };
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
