/** The road-safety (STATS19) and road-traffic (DfT traffic statistics) mirror datasets: catalogue entries. */
import { OGL } from '../../contract/types.js';
import type { DatasetInfo, YearsScopeOption } from '../../mirror/catalog.js';

/** `sync road-safety --years`: the years loaded (FIRST_DEFAULT_YEAR and defaultYears in sync/road-safety.ts). */
export const ROAD_SAFETY_YEARS = {
  name: 'years',
  description: 'the years loaded',
  default: '2021 to the latest final year',
  // DfT's STATS19 `1979-latest-published-year` files
  firstYear: { year: 1979, what: 'road safety data (STATS19) starts in 1979' },
} as const satisfies YearsScopeOption;

const DFT_ATTRIBUTION = 'Contains public sector information licensed under the Open Government Licence v3.0 (Department for Transport).';

/**
 * The columns of `collisions` a collision list item is made of (src/domains/vehicles/road-safety.ts): the
 * sync copies them into `collision_points`, the located collisions stored in grid-cell order for the
 * radius routes.
 */
export const COLLISION_LIST_COLUMNS = `collision_index, collision_year, collision_ref_no, longitude, latitude,
  collision_severity, collision_severity_label, number_of_vehicles, number_of_casualties, collision_date, collision_time,
  police_force, local_authority_ons_district, speed_limit, road_type, road_type_label, urban_or_rural_area,
  urban_or_rural_area_label, lsoa_of_accident_location`;

export const ROAD_SAFETY_INFO: DatasetInfo = {
  name: 'road-safety',
  title: 'Road safety data: STATS19 personal-injury road collisions, vehicles and casualties (Great Britain)',
  file: 'road_safety.duckdb',
  schema: 'road_safety',
  publisher: 'Department for Transport',
  sourceUrl: 'https://www.data.gov.uk/dataset/cb7ae6f0-4be6-4935-9277-47e5ce24a11f/road-accidents-safety-data',
  licence: OGL,
  attribution: DFT_ATTRIBUTION,
  approxDownload: '50 MB a year (5 years: 250 MB)',
  cadence: 'yearly',
  // Final data for a year are published each September.
  staleAfterDays: 400,
  dateScope: [ROAD_SAFETY_YEARS],
  export: {
    // The load sorts each table on collision_index (which starts with the year), then vehicle/casualty reference.
    tables: [
      {
        name: 'collisions',
        description: 'one row per reported personal-injury collision (coded fields with their labels beside them)',
        partitionBy: [{ column: 'collision_year', expr: 'collision_year' }],
        sortBy: ['collision_index'],
        stored: true,
      },
      {
        name: 'vehicles',
        description: 'one row per vehicle in a collision, joined to collisions on collision_index',
        partitionBy: [{ column: 'collision_year', expr: 'collision_year' }],
        sortBy: ['collision_index', 'vehicle_reference'],
        stored: true,
      },
      {
        name: 'casualties',
        description: 'one row per casualty of a collision, joined to collisions on collision_index (and vehicles on vehicle_reference)',
        partitionBy: [{ column: 'collision_year', expr: 'collision_year' }],
        sortBy: ['collision_index', 'casualty_reference'],
        stored: true,
      },
      { name: 'code_labels', description: 'the STATS19 code list: table, field, code, label (the dimension of every coded field)', sortBy: ['table_name', 'field', 'code'], stored: true },
      { name: 'coverage', description: 'the years and dates held' },
    ],
  },
};

export const ROAD_TRAFFIC_INFO: DatasetInfo = {
  name: 'road-traffic',
  title: 'Road traffic statistics: annual average daily flows by count point, regional and local-authority traffic (Great Britain)',
  file: 'road_traffic.duckdb',
  schema: 'road_traffic',
  publisher: 'Department for Transport',
  sourceUrl: 'https://roadtraffic.dft.gov.uk/downloads',
  licence: OGL,
  attribution: DFT_ATTRIBUTION,
  approxDownload: '25 MB (AADF zip) + 1 MB',
  cadence: 'yearly',
  staleAfterDays: 400,
  export: {
    tables: [
      {
        name: 'aadf',
        description: 'annual average daily flow by count point and year, by vehicle type',
        partitionBy: [{ column: 'year', expr: 'year' }],
        sortBy: ['count_point_id'],
      },
      { name: 'count_points', description: 'one row per count point: its latest road, position, region and local authority', sortBy: ['count_point_id'], stored: true },
      { name: 'regional_vehicle_type', description: 'vehicle miles by region, year and vehicle type', sortBy: ['year', 'region_id', 'region_name'], stored: true },
      { name: 'regional_road_type', description: 'vehicle miles by region, year and road category', sortBy: ['year', 'region_id', 'region_name', 'road_category_id'], stored: true },
      { name: 'local_authority_traffic', description: 'vehicle miles by local authority and year', sortBy: ['year', 'local_authority_name'], stored: true },
    ],
  },
};
