/**
 * crime routes: bad input is refused by the route specs (400 invalid_parameter naming the parameter) before
 * any data access: the context's mirror does not exist, so a call that got past validation would answer
 * 503 dataset_not_synced instead. The routes' enumerations agree with the shipped reference data.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRIME_CATEGORY_SLUGS, CRIME_FORCE_SLUGS } from '../../src/domains/crime/routes.js';
import { monthsBack } from '../../src/domains/crime/commands.js';
import { errorOf, getRoute } from '../support/route.js';

const data = (f: string) => JSON.parse(readFileSync(join(__dirname, '..', '..', 'data', 'crime', f), 'utf8'));

async function refused(path: string, query: Record<string, string>, param: string): Promise<void> {
  const e = errorOf(await getRoute(path, query));
  expect(e.status, JSON.stringify(e)).toBe(400);
  expect(e.code).toBe('invalid_parameter');
  expect(e.message).toContain(`'${param}'`);
}

describe('crime routes: bad input before any data access', () => {
  for (const path of ['/v1/crime/street', '/v1/crime/statistics']) {
    it(`${path}: area none, two, half; months; radius; category; force`, async () => {
      await refused(path, {}, 'lat');
      await refused(path, { lsoa: 'E01000916', force: 'surrey' }, 'force');
      await refused(path, { lat: '51.5', lng: '-0.1', lsoa: 'E01000916' }, 'lsoa');
      await refused(path, { lat: '51.5' }, 'lat');
      await refused(path, { lng: '-0.1', force: 'surrey' }, 'lng');
      await refused(path, { force: 'surrey', radius_km: '1' }, 'radius_km');
      await refused(path, { lat: '51.5', lng: '-0.1', radius_km: '5.01' }, 'radius_km');
      await refused(path, { force: 'surrey', month: '2025-13' }, 'month');
      await refused(path, { force: 'surrey', month: '2025-5' }, 'month');
      await refused(path, { force: 'surrey', month_from: '2025-06', month_to: '2025-05' }, 'month_to');
      await refused(path, { force: 'surrey', month: '2025-05', month_from: '2025-01' }, 'month');
      // force: a slug pattern (any force the sync loaded can be asked for), so a malformed slug is refused
      await refused(path, { force: 'Police Scotland' }, 'force');
      await refused(path, { force: 'city-of-london-' }, 'force');
      await refused(path, { lsoa: 'City of London 001F' }, 'lsoa');
    });
  }

  it('an unknown category slug, a malformed crime id', async () => {
    await refused('/v1/crime/street', { force: 'surrey', category: 'burglary,fraud' }, 'category');
    await refused('/v1/crime/outcomes/not-an-id', {}, 'crime_id');
  });

  it('valid calls reach the handler (dataset not synced), the categories answer from shipped data', async () => {
    const calls: Array<Record<string, string>> = [
      { lat: '51.5', lng: '-0.1', radius_km: '5' }, { lsoa: 'e01000916', month_from: '2025-01', month_to: '2025-01' }, { force: 'surrey' },
      { force: 'police-scotland' }, // well-formed, not in data/crime/forces.json: the mirror answers (or says it is not loaded)
    ];
    for (const q of calls) {
      expect(errorOf(await getRoute('/v1/crime/street', q)).code).toBe('dataset_not_synced');
    }
    const r = await getRoute('/v1/crime/categories');
    expect(r.status).toBe(200);
    expect(r.envelope.data).toEqual(data('categories.json').categories);
    expect(r.envelope.meta.source_url).toBe('https://data.police.uk/docs/method/crime-categories/');
  });

  it('the routes enumerate exactly the slugs and forces of data/crime', () => {
    expect([...CRIME_CATEGORY_SLUGS].sort()).toEqual(data('categories.json').categories.map((c: any) => c.category).sort());
    expect([...CRIME_FORCE_SLUGS].sort()).toEqual(data('forces.json').forces.map((f: any) => f.force).sort());
  });

  it('command helpers: --months (--near: the command kit, test/cli/near.test.ts)', () => {
    expect(monthsBack('2025-05', 12)).toBe('2024-06');
    expect(monthsBack('2025-01', 1)).toBe('2025-01');
    expect(monthsBack('2025-01', 2)).toBe('2024-12');
  });
});
