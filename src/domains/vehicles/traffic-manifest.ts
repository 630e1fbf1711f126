/**
 * The road-safety and road-traffic part of the vehicles manifest (src/domains/vehicles/index.ts spreads
 * these in): local handlers by route id, the two datasets and the terminal renderers. Cheap to import:
 * handlers, sync modules and renderers load when first used.
 */
import { handlers, type DatasetEntry, type LocalSpec, type RendererRef } from '../manifest.js';
import { ROAD_SAFETY_INFO, ROAD_TRAFFIC_INFO } from './traffic-datasets.js';

const safety = handlers(() => import('./road-safety.js'), { datasets: [ROAD_SAFETY_INFO] });
const traffic = handlers(() => import('./traffic.js'), { datasets: [ROAD_TRAFFIC_INFO] });

export const trafficLocal: Record<string, LocalSpec> = {
  'vehicles.collisions': safety('collisionsList'),
  'vehicles.collisions.get': safety('collisionGet'),
  'vehicles.road-safety.nearby': safety('collisionsNearby'),
  'vehicles.road-safety.nearby.summary': safety('collisionsNearbySummary'),
  'vehicles.traffic.count-points': traffic('countPoints'),
  'vehicles.traffic.aadf': traffic('aadf'),
  'vehicles.traffic.regional': traffic('regional'),
  'vehicles.traffic.local-authority': traffic('localAuthority'),
};

export const trafficDatasets: DatasetEntry[] = [
  { info: ROAD_SAFETY_INFO, sync: () => import('./sync/road-safety.js').then((m) => m.roadSafety) },
  { info: ROAD_TRAFFIC_INFO, sync: () => import('./sync/road-traffic.js').then((m) => m.roadTraffic) },
];

/** `--chart` on the three traffic series routes; the vehicle-miles tables in whole millions. */
const chart = (routeId: string, millions = false): RendererRef => () =>
  import('./traffic-chart.js').then((m) => (millions ? [m.trafficChartRenderer(routeId), m.millionsTableRenderer()] : m.trafficChartRenderer(routeId)));
export const trafficRenderers: Record<string, RendererRef> = {
  'vehicles.traffic.aadf': chart('vehicles.traffic.aadf'),
  'vehicles.traffic.regional': chart('vehicles.traffic.regional', true),
  'vehicles.traffic.local-authority': chart('vehicles.traffic.local-authority', true),
};
