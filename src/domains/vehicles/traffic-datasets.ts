/** The road-safety (STATS19) and road-traffic (DfT traffic statistics) mirror datasets: catalogue entries. */
import { OGL } from '../../contract/types.js';
import type { DatasetInfo } from '../../mirror/catalog.js';

const DFT_ATTRIBUTION = 'Contains public sector information licensed under the Open Government Licence v3.0 (Department for Transport).';

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
};
