/** `crime stats --chart`: the area's counts by month, oldest first (terminal only). */
import type { Renderer } from '../../output/types.js';

export const statsChart: Renderer = {
  name: 'crime-stats-chart',
  canRender: (_o, rc) => Boolean(rc.options.chart) && !rc.fields,
  render: async (out, rc) => {
    const d = out.envelope.data as { by_month?: Array<{ month: string; count: number }>; total?: number };
    const series = d.by_month ?? [];
    if (series.length < 2) return 'not enough months to chart (need 2 or more: use --months or --from/--to)\n';
    const { fit, plot } = await import('../../output/chart.js');
    const values = fit(series.map((p) => p.count), Math.max(20, rc.columns - 16));
    const chart = await plot([values], { format: (x) => Math.round(x).toLocaleString('en-GB').padStart(8) });
    return `street-level crimes by month, ${series[0]!.month} to ${series[series.length - 1]!.month} (total ${String(d.total ?? '')})\n${chart}\n`;
  },
};
