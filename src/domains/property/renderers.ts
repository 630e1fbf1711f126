/** Terminal renderers of the property routes: the HPI price chart (`property hpi --chart`). */
import type { Renderer } from '../../output/types.js';

export const hpiChart: Renderer = {
  name: 'hpi-chart',
  canRender: (_o, rc) => Boolean(rc.options.chart) && !rc.fields,
  render: async (out, rc) => {
    const { priceChart } = await import('../../output/chart.js');
    return priceChart(out.envelope.data as never, rc.columns);
  },
};
