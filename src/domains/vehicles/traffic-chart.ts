/**
 * `--chart` for the traffic routes on a terminal: all motor vehicle traffic by year, one line for the first
 * count point, region or local authority of the answer (a chart mixing several would mean nothing; the
 * title says how many there were). Vehicle miles are shown in millions, rounded to the nearest million
 * as the spec asks of presented figures; daily flows in vehicles per day.
 */
import { fit, plot } from '../../output/chart.js';
import type { Renderer } from '../../output/types.js';
import { wrapWords } from '../../output/wrap.js';

type Rec = Record<string, any>;

interface Series {
  key: (r: Rec) => string;
  name: (r: Rec) => string;
  value: (r: Rec) => number | null;
  unit: string;
  what: string;
}

const miles = (r: Rec): number | null => (typeof r.vehicle_miles?.all_motor_vehicles === 'number' ? r.vehicle_miles.all_motor_vehicles : null);

const SERIES: Record<string, Series> = {
  'vehicles.traffic.aadf': {
    key: (r) => String(r.count_point_id),
    name: (r) => `count point ${r.count_point_id} (${r.road_name ?? 'unnamed road'})`,
    value: (r) => (typeof r.daily_flows?.all_motor_vehicles === 'number' ? r.daily_flows.all_motor_vehicles : null),
    unit: 'vehicles/day',
    what: 'count points; use --count-point',
  },
  'vehicles.traffic.regional': {
    key: (r) => `${r.region_name}|${r.breakdown}`,
    name: (r) => String(r.region_name),
    value: miles,
    unit: 'million vehicle miles',
    what: 'regions; use --region and --breakdown vehicle_type',
  },
  'vehicles.traffic.local-authority': {
    key: (r) => String(r.local_authority_name),
    name: (r) => String(r.local_authority_name),
    value: miles,
    unit: 'million vehicle miles',
    what: 'local authorities; use --local-authority',
  },
};

export async function trafficChart(routeId: string, records: readonly Rec[], columns: number): Promise<string> {
  const s = SERIES[routeId];
  if (!s) return '';
  // regional: prefer the vehicle-type breakdown (its all_motor_vehicles is the region's total)
  const pool = routeId === 'vehicles.traffic.regional' && records.some((r) => r.breakdown === 'vehicle_type') ? records.filter((r) => r.breakdown === 'vehicle_type') : records;
  const keys = [...new Set(pool.map(s.key))];
  const first = keys[0];
  const pts = pool
    .filter((r) => s.key(r) === first && s.value(r) !== null)
    .sort((a, b) => Number(a.year) - Number(b.year));
  if (pts.length < 2) return 'not enough points to chart (need 2 or more years with all motor vehicle traffic)\n';
  const scale = s.unit.startsWith('million') ? 1e6 : 1;
  const values = fit(pts.map((r) => Math.round(s.value(r)! / scale)), Math.max(20, columns - 16));
  const chart = await plot([values], { format: (x) => Math.round(x).toLocaleString('en-GB').padStart(10) });
  const note = keys.length > 1 ? ` (first of ${keys.length} ${s.what})` : '';
  return `${s.name(pts[0]!)}: all motor vehicles, ${s.unit}, ${pts[0]!.year} to ${pts[pts.length - 1]!.year}${note}\n${chart}\n`;
}

/** The `--chart` renderer of one traffic route (registered by route id in traffic-manifest.ts). */
export function trafficChartRenderer(routeId: string): Renderer {
  return {
    name: 'traffic-chart',
    canRender: (_o, rc) => Boolean(rc.options.chart) && !rc.fields,
    render: (out, rc) => trafficChart(routeId, (out.envelope.data ?? []) as Rec[], rc.columns),
  };
}

/**
 * The table of the vehicle-miles routes (regional, local-authority) on a terminal: the spec says presented
 * figures are rounded to the nearest million vehicle miles, so the table shows whole millions (the JSON,
 * ndjson and csv outputs keep the published values). Gives way to the generic table with --fields/--wide.
 */
export function millionsTableRenderer(): Renderer {
  return {
    name: 'vehicle-miles-millions',
    canRender: (_o, rc) => !rc.fields && !rc.wide,
    render: async (out, rc) => {
      const { recordsTable } = await import('../../output/view.js');
      const rows = ((out.envelope.data ?? []) as Rec[]).map((r) => {
        const { vehicle_miles: vm, ...rest } = r;
        const m = Object.fromEntries(Object.entries((vm ?? {}) as Record<string, number | null>).map(([k, v]) => [k, v === null ? null : Math.round(v / 1e6)]));
        return { ...rest, ...m };
      });
      const said = 'vehicle miles in millions, rounded to the nearest million (--format json for the published values)';
      return `${await recordsTable(rows, rc)}${rc.columns > 0 ? wrapWords(said, rc.columns) : said}\n`;
    },
  };
}
