/**
 * `publicdata area` on a terminal: one report, the postcode, then a heading per section with the lines its
 * own domain's section module renders (src/domains/area-section.ts: small aligned tables, a sparkline of
 * crimes by month); every line fits the terminal (80 columns by default). `--format json` prints the envelope.
 */
import type { Renderer } from '../../output/types.js';
import { cut, type Json } from '../area-section.js';
import { areaSections } from '../manifest.js';

async function section(name: string, s: Json, width: number): Promise<string[]> {
  const head = `${name.replace(/_/g, ' ').toUpperCase()}${s.as_of ? ` (as of ${s.as_of})` : ''}`;
  if (s.status === 'not_synced') return [head, cut(`  not synced: run '${s.sync}'`, width)];
  if (s.status !== 'ok') return [head, cut(`  ${s.status.replace(/_/g, ' ')}: ${s.note ?? ''}`, width)];
  const decl = areaSections().find((d) => d.name === name);
  return [head, ...(decl ? (await decl.load()).render(s, width) : [])];
}

export const areaReport: Renderer = {
  name: 'area-report',
  canRender: (_o, rc) => !rc.fields,
  render: async (out, rc) => {
    const width = Math.min(rc.columns || 80, 80);
    const d = out.envelope.data as Json;
    const pc = d.postcode;
    const where = [pc.ward?.name, pc.local_authority?.name ?? pc.local_authority?.code, pc.country?.name].filter(Boolean).join(', ');
    const loc = pc.location ? `${pc.location.latitude}, ${pc.location.longitude}` : 'no grid reference';
    const lines = [cut(`${pc.postcode}  ${where}`, width), cut(`  ${pc.status}; ${loc}`, width), ''];
    for (const [name, s] of Object.entries(d.sections as Record<string, Json>)) lines.push(...(await section(name, s, width)), '');
    return `${lines.join('\n')}`;
  },
};
