/**
 * Road traffic test files. Real excerpts (test/fixtures/vehicles/dft-road-traffic, see SOURCES.md) where
 * they exist; GENERATED here, labelled so, where none was found:
 * - `dft_traffic_counts_aadf.zip`: a real zip (yazl) holding the real Leeds AADF rows as the publisher's
 *   member name `dft_traffic_counts_aadf.csv` (the zip itself is generated);
 * - a 2025-layout AADF file (34 columns: `LGVs`, `HGVs_*`, `region_ons_code`, `road_category`, numbers such as
 *   `1.2e+03`), generated from the first Leeds rows;
 * - `region_traffic_by_road_type.csv` in the published column list, values derived from the real regional
 *   file (each region-year's all_motor_vehicles split over seven road categories with fixed shares).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesOf, readCsv } from '../support/mirror-helper.js';
import { writeZip } from '../support/zip.js';
import { type CsvRow, writeCsv } from './stats19-fixture.js';

const FIXTURES = fixturesOf('vehicles');

export const TRAFFIC = join(FIXTURES, 'dft-road-traffic');
export const REAL = {
  aadfLeeds: join(TRAFFIC, 'dft_aadf_local_authority_id_63.csv'),
  regional2025: join(TRAFFIC, 'region_traffic_by_vehicle_type-1993-2025-release.csv'),
  regional2021: join(TRAFFIC, 'region_traffic_by_vehicle_type.csv'),
  localAuthority: join(TRAFFIC, 'local_authority_traffic-1993-2023-release-excerpt.csv'),
};
/** A number as R writes it in exponent form: 2.28e+08. */
export const rExp = (v: number, digits = 2): string => v.toExponential(digits).replace(/e([+-])(\d)$/, 'e$10$2');
export const rows = (file: string): CsvRow[] => readCsv(readFileSync(file, 'utf8'));

/** Road categories of the generated road-type file: id, name, share of the region's traffic. */
export const ROAD_CATEGORIES: ReadonlyArray<[number, string, number]> = [
  [1, 'TM', 0.15], [2, 'PM', 0.01], [3, 'TA', 0.14], [4, 'PA', 0.3], [5, 'B', 0.08], [6, 'C', 0.12], [7, 'U', 0.2],
];

/** GENERATED region_traffic_by_road_type.csv for the years given, from the real 2025-release regional file. */
export function writeRoadTypeFile(path: string, years: readonly number[]): CsvRow[] {
  const header = ['year', 'region_id', 'region_name', 'region_ons_code', 'road_category_id', 'road_category_name', 'link_length_km', 'link_length_miles', 'all_motor_vehicles'];
  const out: CsvRow[] = [];
  for (const r of rows(REAL.regional2025).filter((x) => years.includes(Number(x.year)))) {
    for (const [id, name, share] of ROAD_CATEGORIES) {
      out.push({
        year: r.year!, region_id: r.region_id!, region_name: r.region_name!, region_ons_code: r.region_ons_code!,
        road_category_id: String(id), road_category_name: name,
        link_length_km: String(Math.round(Number(r.link_length_km) * share)), link_length_miles: String(Math.round(Number(r.link_length_miles) * share)),
        all_motor_vehicles: rExp(Number(r.all_motor_vehicles) * share),
      });
    }
  }
  writeCsv(path, header, out);
  return out;
}

/** GENERATED 2025-layout (34 columns) AADF file from the first `n` Leeds rows; numbers partly in exponent form. */
export function writeAadf2025(path: string, n: number): CsvRow[] {
  const leeds = rows(REAL.aadfLeeds).slice(0, n);
  const header = [
    'count_point_id', 'year', 'region_id', 'region_name', 'region_ons_code', 'local_authority_id', 'local_authority_name', 'local_authority_code',
    'road_name', 'road_category', 'road_type', 'start_junction_road_name', 'end_junction_road_name', 'easting', 'northing', 'latitude', 'longitude',
    'link_length_km', 'link_length_miles', 'estimation_method', 'estimation_method_detailed', 'pedal_cycles', 'two_wheeled_motor_vehicles',
    'cars_and_taxis', 'buses_and_coaches', 'LGVs', 'HGVs_2_rigid_axle', 'HGVs_3_rigid_axle', 'HGVs_4_or_more_rigid_axle',
    'HGVs_3_or_4_articulated_axle', 'HGVs_5_articulated_axle', 'HGVs_6_articulated_axle', 'all_HGVs', 'all_motor_vehicles',
  ];
  const out = leeds.map((r) => {
    const o: CsvRow = {};
    for (const h of header) {
      const lower = h.toLowerCase();
      o[h] = r[lower] ?? '';
    }
    o.region_ons_code = 'E12000003';
    o.local_authority_code = 'E08000035';
    o.road_category = r.road_type === 'Major' ? (r.road_name!.startsWith('M') ? 'TM' : 'PA') : 'U';
    o.year = String(Number(r.year) + 6); // a later release
    // R writes large numbers in exponent form
    if (Number(o.all_motor_vehicles) >= 1000) o.all_motor_vehicles = rExp(Number(o.all_motor_vehicles), 4);
    return o;
  });
  writeCsv(path, header, out);
  return out;
}

/** The publisher's zip of the AADF file: one member, the real Leeds rows. */
export function writeAadfZip(path: string): Promise<Buffer> {
  return writeZip(path, [{ name: 'dft_traffic_counts_aadf.csv', data: readFileSync(REAL.aadfLeeds) }]);
}

export function copy(from: string, to: string): void {
  writeFileSync(to, readFileSync(from));
}
