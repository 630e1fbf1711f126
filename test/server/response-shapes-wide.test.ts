/**
 * Beyond the one sample per route of conformance.test.ts: every record the fixture mirror answers for the
 * vehicles, schools, energy, food-hygiene and crime routes (all pages of the lists, the detail of every
 * listed record) fits the published OpenAPI schema (src/domains/<d>/schemas.ts, issue 28), so a blank
 * cell of a real file that the schema does not allow fails here. Earnings and crime outcomes with
 * outcome rows are checked in their sync tests (the fixture mirror holds none of them).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callLocal } from '../../src/backends/local.js';
import { closeAll } from '../../src/mirror/db.js';
import { openApiDocument } from '../../src/server/openapi.js';
import { ROUTES, loadResponseSchemas } from '../../src/registry.js';
import { answerValidator, type AnswerValidator } from '../support/openapi-validate.js';
import { handlerCtx } from '../support/handler-context.js';
import { buildFixtureMirror } from '../support/route-samples.js';

let dataDir: string;
let mirrorDir: string;
let validate: AnswerValidator;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'pd-shapes-'));
  mirrorDir = await buildFixtureMirror(dataDir);
  validate = answerValidator(openApiDocument(ROUTES, 'http://127.0.0.1/v1', { auth: true, responses: await loadResponseSchemas() }));
}, 120_000);
afterAll(async () => {
  await closeAll();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Seen { answers: number; records: number; misfits: string[] }

async function call(seen: Seen, route: string, path: string, body?: unknown): Promise<any> {
  const u = new URL(path, 'http://x');
  const r = await callLocal(
    { method: body === undefined ? 'GET' : 'POST', path: u.pathname, query: Object.fromEntries(u.searchParams), ...(body !== undefined ? { body } : {}) },
    handlerCtx(undefined, { mirrorDir }),
  );
  expect([path, r.status]).toEqual([path, 200]);
  const env = r.envelope as any;
  seen.answers++;
  seen.records += Array.isArray(env.data) ? env.data.length : 1;
  seen.misfits.push(...validate(route, env).map((e) => `${path}: ${e}`));
  return env;
}

/** Every page of a list, 100 a page. */
async function allPages(seen: Seen, route: string, path: string): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const env = await call(seen, route, `${path}${path.includes('?') ? '&' : '?'}per_page=100&page=${page}`);
    out.push(...env.data);
    if (page >= (env.pagination?.total_pages ?? 1)) return out;
  }
}

describe('every fixture record fits its published response schema', () => {
  it('vehicles', async () => {
    const seen: Seen = { answers: 0, records: 0, misfits: [] };
    const collisions = await allPages(seen, 'vehicles.collisions', '/v1/vehicles/road-safety/collisions');
    for (const c of collisions) await call(seen, 'vehicles.collisions.get', `/v1/vehicles/road-safety/collisions/${c.collision_index}`);
    await allPages(seen, 'vehicles.licensing', '/v1/vehicles/licensing?make=FO');
    await allPages(seen, 'vehicles.registrations', '/v1/vehicles/registrations?make=KI');
    await allPages(seen, 'vehicles.mot-tests', '/v1/vehicles/mot-tests');
    await allPages(seen, 'vehicles.mot-pass-rates', '/v1/vehicles/mot-pass-rates');
    await allPages(seen, 'vehicles.mot-failures', '/v1/vehicles/mot-failures');
    await allPages(seen, 'vehicles.traffic.count-points', '/v1/vehicles/traffic/count-points');
    await call(seen, 'vehicles.traffic.count-points', '/v1/vehicles/traffic/count-points?lat=53.76&lng=-1.51&radius_km=50');
    await allPages(seen, 'vehicles.traffic.aadf', '/v1/vehicles/traffic/aadf');
    await allPages(seen, 'vehicles.traffic.regional', '/v1/vehicles/traffic/regional');
    await allPages(seen, 'vehicles.traffic.local-authority', '/v1/vehicles/traffic/local-authority');
    expect(seen.misfits).toEqual([]);
    expect(collisions.length).toBeGreaterThan(20);
    expect(seen.records).toBeGreaterThan(1000);
  }, 120_000);

  it('schools, food hygiene, crime, energy', async () => {
    const seen: Seen = { answers: 0, records: 0, misfits: [] };
    const schools = await allPages(seen, 'schools.search', '/v1/schools?status=open');
    for (const s of schools) await call(seen, 'schools.detail', `/v1/schools/${s.urn}`);
    await call(seen, 'schools.search', '/v1/schools?lat=53.8&lng=-1.55&radius_km=20');
    await call(seen, 'schools.inspections.statistics', '/v1/schools/inspections/statistics');
    const places = await allPages(seen, 'food-hygiene.establishments', '/v1/food-hygiene/establishments');
    for (const e of places) await call(seen, 'food-hygiene.establishment', `/v1/food-hygiene/establishments/${e.fhrs_id}`);
    await allPages(seen, 'food-hygiene.authorities', '/v1/food-hygiene/authorities');
    for (const la of ['314', '626', '648', '760']) await call(seen, 'food-hygiene.statistics', `/v1/food-hygiene/statistics?local_authority=${la}`);
    await call(seen, 'food-hygiene.statistics', '/v1/food-hygiene/statistics');
    const crimes = await allPages(seen, 'crime.street', '/v1/crime/street?force=city-of-london');
    for (const c of crimes.filter((x) => x.crime_id).slice(0, 40)) await call(seen, 'crime.outcomes', `/v1/crime/outcomes/${c.crime_id}`);
    await call(seen, 'crime.street', '/v1/crime/street?lat=51.5155&lng=-0.0922&radius_km=1');
    await call(seen, 'crime.statistics', '/v1/crime/statistics?lsoa=E01000001');
    await allPages(seen, 'energy.price-cap.periods', '/v1/energy/price-cap/periods');
    await call(seen, 'energy.price-cap.calculate', '/v1/energy/price-cap/calculate', { gas_kwh: 11500 });
    expect(seen.misfits).toEqual([]);
    // no vacuous pass: the lists were walked (the fixture's 41 Leeds schools, 4 authorities' files, 342 City crimes)
    expect([schools.length, places.length > 50, crimes.length]).toEqual([41, true, 342]);
  }, 120_000);

  it('the schemas bite: a spec type broken, a nullable made absent, an undeclared field', async () => {
    const seen: Seen = { answers: 0, records: 0, misfits: [] };
    const env = await call(seen, 'vehicles.collisions.get', '/v1/vehicles/road-safety/collisions/2022010352073');
    const d = env.data;
    expect(validate('vehicles.collisions.get', env)).toEqual([]);
    expect(validate('vehicles.collisions.get', { ...env, data: { ...d, collision_severity: '3' } }).join()).toMatch(/collision_severity/);
    expect(validate('vehicles.collisions.get', { ...env, data: { ...d, collision_time: '16:40:00' } }).join()).toMatch(/collision_time/);
    const { lsoa: _l, ...noLsoa } = d;
    expect(validate('vehicles.collisions.get', { ...env, data: noLsoa }).join()).toMatch(/lsoa/);
    expect(validate('vehicles.collisions.get', { ...env, data: { ...d, vehicles: [{ ...d.vehicles[0], colour: 'red' }] } }).join()).toMatch(/additional/);
    const { caveat: _c, ...noCaveat } = env.meta;
    expect(validate('vehicles.collisions.get', { ...env, meta: noCaveat }).join()).toMatch(/caveat/);
  });
});
