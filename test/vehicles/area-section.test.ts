/**
 * The road safety and traffic sections of the area profile (src/domains/vehicles/area-sections.ts), built
 * in process on the vehicles fixture mirror alone (test/support/area-section.ts), against counts made here
 * from the fixture CSVs with this file's own haversine. The points are those the generated postcode
 * directory gives EC2V 7HH (51.5155, -0.0922) and LS8 3BS (53.82621, -1.52148).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSection, place } from '../support/area-section.js';
import { useFixtureMirror } from '../support/route-samples.js';

const fx = useFixtureMirror('pd-vehicles-area-', 'vehicles');
const FIX = join(__dirname, '..', 'fixtures', 'vehicles');
const EC2V: [number, number] = [51.5155, -0.0922];
const LS8: [number, number] = [53.82621, -1.52148];

function km(a: [number, number], b: [number, number]): number {
  const r = Math.PI / 180;
  const h = Math.sin(((b[0] - a[0]) * r) / 2) ** 2 + Math.cos(a[0] * r) * Math.cos(b[0] * r) * Math.sin(((b[1] - a[1]) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}
/** The fixture files hold no quoted comma: a plain split reads them. */
function csv(path: string): Array<Record<string, string>> {
  const lines = readFileSync(path, 'utf8').split(/\r?\n/).filter((l) => l !== '');
  const cells = (l: string) => l.split(',').map((c) => c.replace(/^"|"$/g, ''));
  const header = cells(lines[0]!);
  return lines.slice(1).map((l) => Object.fromEntries(cells(l).map((c, i) => [header[i]!, c])));
}

describe('area section: road safety', () => {
  it('the collisions of the years held (2022) within 5 km of EC2V 7HH, by severity, with casualties', async () => {
    const { answer: s, source, map } = await buildSection('road_safety', place({ lat: EC2V[0], lng: EC2V[1], radius: 5 }), join(fx.dir(), 'mirror'));
    const rows = csv(join(FIX, 'stats19', 'dft-road-casualty-statistics-collision-2022-pre2024-layout.csv'))
      .filter((x) => x.latitude !== '' && km(EC2V, [Number(x.latitude), Number(x.longitude)]) <= 5);
    expect(rows.length).toBeGreaterThan(3);
    // none of them is in the City of London's own district: counting by authority would find none
    expect(rows.filter((x) => x.local_authority_ons_district === 'E09000001')).toEqual([]);
    const sev = (n: string) => rows.filter((x) => x.accident_severity === n).length;
    expect(s).toMatchObject({
      status: 'ok', radius_km: 5, years: { from: 2022, to: 2022 }, collisions: rows.length,
      by_severity: { fatal: sev('1'), serious: sev('2'), slight: sev('3') },
      casualties: rows.reduce((n, x) => n + Number(x.number_of_casualties), 0),
    });
    expect(source).toEqual(['/v1/vehicles/road-safety/nearby/summary?lat=51.5155&lng=-0.0922&radius_km=5']);
    // the map's points: the records behind the figure, the same circle on /nearby
    expect(map.map((m) => [m.layer, m.paths])).toEqual([['collisions', ['/v1/vehicles/road-safety/nearby?lat=51.5155&lng=-0.0922&radius_km=5']]]);
  });
});

describe('area section: traffic', () => {
  it("the 3 count points nearest LS8 3BS within 2 km, each with its newest year and that year's all-motor-vehicle flow", async () => {
    const { answer: s } = await buildSection('traffic', place({ lat: LS8[0], lng: LS8[1], radius: 2 }), join(fx.dir(), 'mirror'));
    // the Leeds AADF file: per count point its newest year's row (position and flow of that year)
    const latest = new Map<string, Record<string, string>>();
    for (const r of csv(join(FIX, 'dft-road-traffic', 'dft_aadf_local_authority_id_63.csv'))) {
      const cur = latest.get(r.count_point_id!);
      if (!cur || Number(r.year) > Number(cur.year)) latest.set(r.count_point_id!, r);
    }
    const near = [...latest.values()]
      .map((r) => ({ id: Number(r.count_point_id), road: r.road_name, year: Number(r.year), amv: Number(r.all_motor_vehicles), d: Math.round(km(LS8, [Number(r.latitude), Number(r.longitude)]) * 1000) / 1000 }))
      .filter((x) => x.d <= 2)
      .sort((a, b) => a.d - b.d || a.id - b.id);
    expect(near.length).toBeGreaterThan(3);
    expect(s.status).toBe('ok');
    expect(s.count_points).toEqual(near.slice(0, 3).map((x) => ({ count_point_id: x.id, road_name: x.road, distance_km: x.d, year: x.year, all_motor_vehicles: x.amv })));
  });
});
