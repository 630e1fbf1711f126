/**
 * Terminal renderers of the tax routes, registered by route id: the take-home breakdown, the `--sweep`
 * table and chart, `compare` as A / B / difference, and the VAT return's nine boxes. Each gives way to
 * the generic table with `--fields` or `--wide`. The tax manifest (index.ts) registers them.
 */
import type { Renderer, RenderContext } from '../../output/types.js';

const plain = (rc: RenderContext): boolean => !rc.fields && !rc.wide;
const render = () => import('./render.js');

/** A renderer of one of render.ts's functions, used unless --fields or --wide asks for the generic table. */
function plainRenderer(name: string, draw: (m: Awaited<ReturnType<typeof render>>, data: never, rc: RenderContext) => string | Promise<string>, when: (rc: RenderContext) => boolean = () => true): Renderer {
  return { name, canRender: (_o, rc) => plain(rc) && when(rc), render: async (out, rc) => draw(await render(), out.envelope.data as never, rc) };
}

export const takeHome = plainRenderer('take-home', (m, d, rc) => m.renderTakeHome(d, { color: rc.color, columns: rc.columns }));
export const sweepChart = plainRenderer('sweep-chart', (m, d) => m.sweepChart(d), (rc) => Boolean(rc.options.chart));
export const sweepTable = plainRenderer('sweep-table', (m, d, rc) => m.renderSweep(d, { color: rc.color, columns: rc.columns }));
export const compare = plainRenderer('compare', (m, d, rc) => m.renderCompare(d, { color: rc.color, columns: rc.columns }));
export const vatReturn = plainRenderer('vat-return', (m, d, rc) => m.renderVatReturn(d, { color: rc.color }));
