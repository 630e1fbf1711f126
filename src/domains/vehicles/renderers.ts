/**
 * Terminal renderers of the vehicles routes: `vehicles registrations --chart` (and `licensing --chart`)
 * draw the counts of the answer's rows summed by quarter, oldest first. One geography per chart (UK
 * includes GB, so the two are never added): GB when the answer has both. With one page only the rows of
 * that page are summed; the title says so and suggests --all.
 */
import type { Renderer } from '../../output/types.js';

interface Row {
  quarter?: string;
  geography?: string;
  make?: string;
  count?: number;
}

/** The counts of one geography's rows summed by quarter (quarter-end date ascending). */
export function quarterSeries(rows: readonly Row[], geography: string): Array<{ quarter: string; count: number }> {
  const sums = new Map<string, number>();
  for (const r of rows) {
    if (r.geography !== geography || typeof r.quarter !== 'string' || typeof r.count !== 'number') continue;
    sums.set(r.quarter, (sums.get(r.quarter) ?? 0) + r.count);
  }
  return [...sums].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([quarter, count]) => ({ quarter, count }));
}

const label = (d: string) => `${d.slice(0, 4)} Q${Math.ceil(Number(d.slice(5, 7)) / 3)}`;

function chartRenderer(name: string, what: string): Renderer {
  return {
    name,
    canRender: (_o, rc) => Boolean(rc.options.chart) && !rc.fields,
    render: async (out, rc) => {
      const rows = (Array.isArray(out.envelope.data) ? out.envelope.data : []) as Row[];
      const geos = [...new Set(rows.map((r) => r.geography).filter((g): g is string => !!g))].sort();
      const geo = geos.includes('GB') ? 'GB' : geos[0];
      const series = geo ? quarterSeries(rows, geo) : [];
      if (series.length < 2) return `not enough quarters to chart (need 2 or more; narrow the filters or add --all)\n`;
      const { fit, plot } = await import('../../output/chart.js');
      const values = fit(series.map((p) => p.count), Math.max(20, rc.columns - 16));
      const chart = await plot([values], { format: (x) => Math.round(x).toLocaleString('en-GB').padStart(10) });
      const makes = [...new Set(rows.map((r) => r.make).filter(Boolean))];
      const total = out.envelope.pagination?.total;
      const partial = total !== undefined && total > rows.length ? `; ${rows.length} of ${total} rows, add --all for the whole series` : '';
      const other = geos.length > 1 ? `; ${geos.filter((g) => g !== geo).join(', ')} left out (use --geography)` : '';
      const who = makes.length === 1 ? `${makes[0]} ` : makes.length > 1 ? `${makes.length} makes, ` : '';
      return `${who}${what}, ${geo}, ${label(series[0]!.quarter)} to ${label(series[series.length - 1]!.quarter)} (sum by quarter${partial}${other})\n${chart}\n`;
    },
  };
}

export const registrationsChart = chartRenderer('registrations-chart', 'first registrations');
export const licensingChart = chartRenderer('licensing-chart', 'licensed and SORN vehicles');
