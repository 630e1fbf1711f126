/**
 * `schools stats --chart` on a terminal: horizontal bars of the grade distribution (graded overall
 * effectiveness, then each report-card area), with the counts; the as-of date is printed with it, as
 * Ofsted asks that outcomes are never shown without their date.
 */
import type { Renderer } from '../../output/types.js';

type Counts = Record<string, number>;

function bars(title: string, counts: Counts, width: number): string[] {
  const entries = Object.entries(counts);
  if (!entries.length) return [];
  const max = Math.max(1, ...entries.map(([, n]) => n));
  const label = Math.max(...entries.map(([k]) => k.length));
  const room = Math.max(10, width - label - 12);
  return [title, ...entries.map(([k, n]) => `  ${k.padEnd(label)} ${'█'.repeat(Math.round((n / max) * room))} ${n}`), ''];
}

export const statisticsChart: Renderer = {
  name: 'schools-grade-chart',
  canRender: (_o, rc) => Boolean(rc.options.chart) && !rc.fields,
  render: (out, rc) => {
    const d = out.envelope.data as { school_count: number; inspected_count: number; by_framework: Counts; overall_effectiveness: Counts;
      report_card: Record<string, Counts>; as_of: string | null };
    const width = rc.columns || 80;
    const lines = [
      `${d.school_count} open schools, ${d.inspected_count} inspected; latest inspections as at ${d.as_of ?? 'unknown date'}`, '',
      ...bars('Latest inspection by framework', d.by_framework, width),
      ...bars('Graded framework: overall effectiveness', d.overall_effectiveness, width),
      ...Object.entries(d.report_card).flatMap(([area, c]) => bars(`Report card: ${area}`, c, width)),
    ];
    return `${lines.join('\n')}\n`;
  },
};
