/**
 * Terminal renderers of the food-hygiene answers: the search as a table with the rating beside its date
 * (the FSA's terms ask that a rating be shown with its date), and `stats --chart`, the rating
 * distribution as bars.
 */
import type { Renderer } from '../../output/types.js';

interface EstablishmentOut {
  fhrs_id?: number;
  business_name?: string | null;
  address?: { lines?: string[]; postcode?: string | null };
  local_authority?: { name?: string | null };
  rating?: { value?: string | null; date?: string | null; new_rating_pending?: boolean | null };
  distance_km?: number;
}

/** `5 (2019-06-10)`, `pass_and_eat_safe (2020-02-20)`, `awaiting_inspection`; ` *` when a new rating is pending. */
export function ratingWithDate(r: EstablishmentOut['rating']): string {
  if (!r?.value) return '';
  return `${r.value}${r.date ? ` (${r.date})` : ''}${r.new_rating_pending ? ' *' : ''}`;
}

export const establishmentsTable: Renderer = {
  name: 'food-hygiene-table',
  canRender: (_o, rc) => rc.format === 'table' && !rc.fields && !rc.wide,
  render: async (out, rc) => {
    const rows = (Array.isArray(out.envelope.data) ? out.envelope.data : []) as EstablishmentOut[];
    if (!rows.length) return 'no establishments match\n';
    const near = rows.some((r) => r.distance_km !== undefined);
    const table = rows.map((r) => ({
      fhrs_id: r.fhrs_id ?? null,
      business_name: r.business_name ?? null,
      postcode: r.address?.postcode ?? null,
      'rating (date)': ratingWithDate(r.rating),
      ...(near ? { distance_km: r.distance_km ?? null } : {}),
      authority: r.local_authority?.name ?? null,
    }));
    const { recordsTable } = await import('../../output/view.js');
    const pending = rows.some((r) => r.rating?.new_rating_pending) ? '* a new rating is pending\n' : '';
    // The rating is what the list is for: kept (cut, never dropped) at any width.
    return `${await recordsTable(table, { ...rc, measures: ['rating (date)'] })}${pending}`;
  },
};

/** The rating distribution of a statistics answer, one bar per value, largest count the full width. */
export const statisticsChart: Renderer = {
  name: 'food-hygiene-stats-chart',
  canRender: (_o, rc) => rc.format === 'table' && Boolean(rc.options.chart) && !rc.fields,
  render: (out, rc) => {
    const d = out.envelope.data as { area?: string; establishment_count?: number | null; by_rating?: Record<string, number> | null; share_4_or_5?: number | null };
    // an authority not loaded: no figures to draw (the note under the answer says which sync loads it)
    if (d.establishment_count === null) return `no figures for ${d.area ?? 'the area'}: not loaded\n`;
    const entries = Object.entries(d.by_rating ?? {});
    if (!entries.length) return `no establishments in ${d.area ?? 'the area'}\n`;
    const max = Math.max(...entries.map(([, n]) => n));
    const label = Math.max(...entries.map(([k]) => k.length));
    const width = Math.max(10, Math.min(60, (rc.columns || 80) - label - 12));
    const lines = entries.map(([k, n]) => `${k.padStart(label)} ${'█'.repeat(Math.max(n > 0 ? 1 : 0, Math.round((n / max) * width)))} ${n.toLocaleString('en-GB')}`);
    const share = d.share_4_or_5 === null || d.share_4_or_5 === undefined ? '' : `, ${(d.share_4_or_5 * 100).toFixed(1)}% of FHRS ratings 4 or 5`;
    return `Ratings in ${d.area ?? 'all'}: ${(d.establishment_count ?? 0).toLocaleString('en-GB')} establishments${share}\n${lines.join('\n')}\n`;
  },
};
