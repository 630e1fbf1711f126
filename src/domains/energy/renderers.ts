/** Terminal renderers of the energy routes (table format; --fields or --wide give the generic table). */
import type { Renderer, RenderContext } from '../../output/types.js';

const plain = (rc: RenderContext): boolean => !rc.fields && !rc.wide;
const render = () => import('./render.js');

export const bill: Renderer = {
  name: 'energy-bill',
  canRender: (_o, rc) => plain(rc),
  render: async (out, rc) => (await render()).renderBill(out.envelope.data as never, { color: rc.color, meta: out.envelope.meta as never, columns: rc.columns }),
};

export const periodsChart: Renderer = {
  name: 'energy-periods-chart',
  canRender: (_o, rc) => plain(rc) && Boolean(rc.options.chart),
  render: async (out, rc) => (await render()).periodsChart(out.envelope.data as never, rc.columns || 80),
};
