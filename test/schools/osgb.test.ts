/**
 * The grid conversion against Ordnance Survey's published worked examples ("A guide to coordinate systems in
 * Great Britain"): the transverse Mercator example (Caister water tower: E 651409.903, N 313177.270 is
 * 52°39′27.2531″N 1°43′4.5177″E on Airy 1830) and the Helmert example (ETRS89 X 3790644.900, Y -110149.210,
 * Z 5111482.970 is OSGB36 X 3790269.549, Y -110038.064, Z 5111050.261), and the Windows-1252 decoder.
 */
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { decodeWindows1252 } from '../../src/domains/schools/sync/encoding.js';
import { BNG_PROJ, gridToWgs84, OSGB36_TOWGS84 } from '../../src/domains/schools/sync/osgb.js';
import { gridToWgs84ByHand, TMERC_AIRY } from './fixture.js';

const dms = (d: number, m: number, s: number) => d + m / 60 + s / 3600;

describe('OSGB36 grid to WGS84', () => {
  it('projects like the OS transverse Mercator worked example (to 0.0001″)', () => {
    const airy = BNG_PROJ.replace(/ \+towgs84=\S+/, '');
    expect(airy).toBe(TMERC_AIRY);
    const [lon, lat] = proj4(airy, '+proj=longlat +ellps=airy +no_defs', [651409.903, 313177.27]) as [number, number];
    expect(Math.abs(lat - dms(52, 39, 27.2531)) * 3600).toBeLessThan(1e-4);
    expect(Math.abs(lon - dms(1, 43, 4.5177)) * 3600).toBeLessThan(1e-4);
  });

  it("shifts the datum like the OS Helmert worked example (within 2 cm: proj4 inverts OS's forward parameters)", () => {
    const osgb = `+proj=geocent +ellps=airy +towgs84=${OSGB36_TOWGS84} +units=m +no_defs`;
    const [x, y, z] = proj4('+proj=geocent +datum=WGS84 +units=m +no_defs', osgb, [3790644.9, -110149.21, 5111482.97]) as [number, number, number];
    expect(Math.abs(x - 3790269.549)).toBeLessThan(0.02);
    expect(Math.abs(y - -110038.064)).toBeLessThan(0.02);
    expect(Math.abs(z - 5111050.261)).toBeLessThan(0.02);
  });

  it('agrees with a conversion done by hand from the OS formulas (within 1e-5 degrees, about a metre)', () => {
    for (const [e, n] of [[533498, 181201], [528515, 184869], [651409.903, 313177.27], [420000, 433000], [326000, 673000]] as const) {
      const got = gridToWgs84(e, n)!;
      const want = gridToWgs84ByHand(e, n);
      expect(Math.abs(got.latitude - want.latitude)).toBeLessThan(1e-5);
      expect(Math.abs(got.longitude - want.longitude)).toBeLessThan(1e-5);
    }
  });

  it('gives no location for a zero or out-of-range grid reference', () => {
    expect(gridToWgs84(0, 0)).toBeNull();
    expect(gridToWgs84(800_000, 100_000)).toBeNull();
    expect(gridToWgs84(Number.NaN, 100)).toBeNull();
  });
});

describe('Windows-1252', () => {
  it('decodes 0x80-0x9F as Windows-1252 (curly quotes, dashes, euro), not as C1 controls', () => {
    expect(decodeWindows1252(Buffer.from([0x93, 0x91, 0x92, 0x94, 0x96, 0x97, 0x80, 0xe9, 0x41]))).toBe('“‘’”–—€éA');
  });
});
