/**
 * The crime section of the area profile (src/domains/crime/area-section.ts), built in process on the crime
 * fixture mirror alone (test/support/area-section.ts), against counts made here from the real City of
 * London street file: the crimes within 1 km of EC2V 7HH's point (as the generated postcode directory gives
 * it: 51.5155, -0.0922), by the haversine written in test/crime/fixture.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSection, place } from '../support/area-section.js';
import { json, runCli } from '../support/cli.js';
import { useFixtureMirror } from '../support/route-samples.js';
import { distanceKm } from './fixture.js';

const fx = useFixtureMirror('pd-crime-area-', 'crime');
const EC2V: [number, number] = [51.5155, -0.0922];
const FILE = join(__dirname, '..', 'fixtures', 'crime', '2025-05-city-of-london-street.csv');

/** The file's rows within `km` of the point: Latitude is column 6, Longitude 5, Crime type 10 (no quoted field before them). */
function within(km: number): Array<{ type: string }> {
  return readFileSync(FILE, 'utf8').trim().split(/\r?\n/).slice(1).map((l) => l.split(','))
    .filter((c) => c[5] !== '' && distanceKm(EC2V[0], EC2V[1], Number(c[5]), Number(c[4])) <= km)
    .map((c) => ({ type: c[9]! }));
}

describe('area section: crime', () => {
  it('the street crimes within 1 km over the 12 months ending with the newest month held, by category and month', async () => {
    const { answer: s, source, map, lines } = await buildSection('crime', place({ lat: EC2V[0], lng: EC2V[1] }), join(fx.dir(), 'mirror'));
    const rows = within(1);
    expect(rows.length).toBe(223); // hand-checked (a separate script): the file holds 342 rows, 223 of them within 1 km
    expect(s.status).toBe('ok');
    expect(s.months).toEqual({ from: '2024-06', to: '2025-05' });
    expect(s.total).toBe(rows.length);
    expect((s.by_category as any[]).find((c) => c.category === 'burglary').count).toBe(rows.filter((x) => x.type === 'Burglary').length);
    expect(s.by_month).toHaveLength(12);
    expect((s.by_month as any[]).at(-1)).toEqual({ month: '2025-05', count: rows.length });
    expect((s.by_month as any[])[0]).toEqual({ month: '2024-06', count: 0 });
    expect(source).toEqual(['/v1/crime/forces', '/v1/crime/statistics?lat=51.5155&lng=-0.0922&radius_km=1&month_from=2024-06&month_to=2025-05']);
    // the map's layer: the street crimes of the same circle and months
    expect(map).toEqual([{ layer: 'crime', paths: ['/v1/crime/street?lat=51.5155&lng=-0.0922&radius_km=1&month_from=2024-06&month_to=2025-05'] }]);
    // the source path runs as it is and gives the figure
    const again = json(await runCli(['api', 'GET', source.at(-1)!, '--format', 'json'], { env: fx.env() }));
    expect(again.data.total).toBe(rows.length);
    // the terminal lines: the total, then a sparkline of 11 empty months and the full one
    const out = await lines(80);
    expect(out[0]).toMatch(new RegExp(`crimes within 1 km\\s+${rows.length} \\(2024-06\\.\\.2025-05\\)`));
    expect(out[1]).toBe('  by month  ▁▁▁▁▁▁▁▁▁▁▁█');
    for (const l of out) expect(l.length).toBeLessThanOrEqual(80);
  });

  it('no_location without a point; not_synced without the crime data', async () => {
    expect((await buildSection('crime', place({}), join(fx.dir(), 'mirror'))).answer.status).toBe('no_location');
    expect((await buildSection('crime', place({ lat: EC2V[0], lng: EC2V[1] }), join(fx.dir(), 'nothing-here'))).answer).toEqual({ status: 'not_synced', sync: 'publicdata sync crime' });
  });
});
