/**
 * The schools section of the area profile (src/domains/schools/area-section.ts), built in process on the
 * schools fixture mirror alone (test/support/area-section.ts), against the open schools within 5 km of LS8
 * 3BS's point (as the generated postcode directory gives it: 53.82621, -1.52148), their grid references
 * converted by this folder's hand formulas (test/schools/fixture.ts), not by the domain's code.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSection, place } from '../support/area-section.js';
import { useFixtureMirror } from '../support/route-samples.js';
import { giasGenerated, gridToWgs84ByHand, haversineKm } from './fixture.js';

const fx = useFixtureMirror('pd-schools-area-', 'schools');
const LS8 = { latitude: 53.82621, longitude: -1.52148 };

describe('area section: schools', () => {
  it('open schools within 5 km, nearest first, by phase', async () => {
    const { answer: s, map } = await buildSection('schools', place({ lat: LS8.latitude, lng: LS8.longitude, radius: 5 }), join(fx.dir(), 'mirror'));
    const near = giasGenerated()
      .filter((g) => g['EstablishmentStatus (name)']!.startsWith('Open') && g.Easting !== '')
      .map((g) => ({ urn: Number(g.URN), phase: g['PhaseOfEducation (name)'], d: haversineKm(LS8, gridToWgs84ByHand(Number(g.Easting), Number(g.Northing))) }))
      .filter((x) => x.d <= 5)
      .sort((a, b) => a.d - b.d);
    expect(near.length).toBeGreaterThan(0);
    expect(s.status).toBe('ok');
    expect(s.count).toBe(near.length);
    expect((s.nearest as any[]).map((x) => x.urn)).toEqual(near.slice(0, 10).map((x) => x.urn));
    expect(Object.values(s.by_phase as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(near.length);
    expect(map).toEqual([{ layer: 'schools', paths: ['/v1/schools?lat=53.82621&lng=-1.52148&radius_km=5'] }]);
  });

  it('no_location without a point; not_synced without the schools data', async () => {
    expect((await buildSection('schools', place({}), join(fx.dir(), 'mirror'))).answer.status).toBe('no_location');
    expect((await buildSection('schools', place({ lat: LS8.latitude, lng: LS8.longitude }), join(fx.dir(), 'nothing-here'))).answer).toEqual({ status: 'not_synced', sync: 'publicdata sync schools' });
  });
});
