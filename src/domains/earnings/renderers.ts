/**
 * Terminal renderer of `earnings rank` (POST /v1/earnings/percentile, table format): the published
 * percentiles of the reference record in order, with the amount placed among them; `--chart` adds a bar
 * per percentile (length proportional to pay) with the amount's bar marked. Outside p10..p90 the amount
 * is shown below p10 or above p90, never given a percentile; an amount that cannot be placed (p10 or p90
 * not published) next to the nearest published point. A missing point reads as the record explains it:
 * 'suppressed' (named in `suppressed`), ONS's other marker (':', '-', with its meaning below), else
 * 'not published' (a blank cell).
 */
import type { Renderer } from '../../output/types.js';
import { wrapWords } from '../../output/wrap.js';
import { markerOf } from './codes.js';

interface Reference {
  year?: number;
  measure?: string;
  population?: string;
  basis?: string;
  status?: string;
  median?: number | null;
  percentiles?: Record<string, number | null>;
  geography?: { code: string; name: string };
  occupation?: { code: string; name: string };
  suppressed?: string[];
  markers?: Record<string, string>;
}

interface Answer {
  amount: number;
  percentile: number | null;
  percentile_bound: 'below_p10' | 'above_p90' | null;
  between?: Array<{ percentile: number; value: number }>;
  reference: Reference;
}

const UNIT: Record<string, { per: string; dp: number }> = {
  annual_gross: { per: 'a year', dp: 0 },
  weekly_gross: { per: 'a week', dp: 2 },
  hourly_excluding_overtime: { per: 'an hour', dp: 2 },
};

/**
 * Pounds with `dp` decimals; a measure shown in whole pounds (dp 0, a year) shows an amount with pence
 * as money does, with two (£42,000.50), never one (£42,000.5).
 */
export function pounds(v: number, dp: number): string {
  const d = dp === 0 && !Number.isInteger(v) ? 2 : dp;
  return `£${v.toLocaleString('en-GB', { minimumFractionDigits: d, maximumFractionDigits: Math.max(d, 2) })}`;
}

const ORDER = [['p10', 10], ['p20', 20], ['p25', 25], ['p30', 30], ['p40', 40], ['median', 50], ['p60', 60], ['p70', 70], ['p75', 75], ['p80', 80], ['p90', 90]] as const;

interface Line {
  label: string;
  value: number | null;
  /** What a null value shows: 'suppressed' (in the record's `suppressed`), ONS's other marker, or 'not published'. */
  missing?: string;
  mark: boolean;
}

/** A null point as the record explains it: suppressed (named in `suppressed`), another marker as ONS prints it, else not published. */
function missingText(ref: Reference, key: string): string {
  const field = key === 'median' ? 'median' : `percentiles.${key}`;
  if (ref.suppressed?.includes(field)) return 'suppressed';
  return ref.markers?.[field] ?? 'not published';
}

/**
 * The published points in order with the amount inserted where it belongs (missing points shown as the
 * record explains them). An amount not placed goes next to the nearest published point (`between`): just
 * before it when below, just after it when above; with no published point, last.
 */
export function rankLines(a: Answer): Line[] {
  const ref = a.reference;
  const pts: Line[] = ORDER.map(([k, q]) => {
    const value = (k === 'median' ? ref.median : ref.percentiles?.[k]) ?? null;
    return { label: q === 50 ? 'median' : `p${q}`, value, ...(value === null ? { missing: missingText(ref, k) } : {}), mark: false };
  });
  const you: Line = {
    label: a.percentile !== null ? `p${a.percentile}` : a.percentile_bound === 'below_p10' ? 'below p10' : a.percentile_bound === 'above_p90' ? 'above p90' : 'not placed',
    value: a.amount,
    mark: true,
  };
  const near = a.between?.[0];
  let at = pts.length;
  if (a.percentile_bound === 'below_p10') at = 0;
  else if (a.percentile !== null) at = ORDER.findIndex(([, q]) => q > a.percentile!) < 0 ? pts.length : ORDER.findIndex(([, q]) => q > a.percentile!);
  else if (a.percentile_bound !== 'above_p90' && near) {
    const i = ORDER.findIndex(([, q]) => q === near.percentile);
    at = a.amount < near.value ? i : i + 1;
  }
  pts.splice(at, 0, you);
  return pts;
}

/** Where the amount sits, in words, for the title. */
function placeWords(a: Answer): string {
  if (a.percentile !== null) return `percentile ${a.percentile} of`;
  if (a.percentile_bound === 'below_p10') return 'below the 10th percentile of';
  if (a.percentile_bound === 'above_p90') return 'above the 90th percentile of';
  const near = a.between?.[0];
  const label = (q: number) => (q === 50 ? 'the median' : `p${q}`);
  if (!near) {
    const all = ORDER.every(([k]) => missingText(a.reference, k) === 'suppressed');
    return `not placed (${all ? 'every percentile suppressed' : 'no percentile published'}) among`;
  }
  return a.amount < near.value
    ? `not placed (below ${label(near.percentile)}, the lowest published) among`
    : `not placed (above ${label(near.percentile)}, the highest published) among`;
}

function title(a: Answer): string {
  const r = a.reference;
  const u = UNIT[r.measure ?? ''] ?? { per: '', dp: 2 };
  const who = (r.population ?? '').replace(/_/g, '-');
  const where = r.occupation ? `${r.occupation.name} (SOC ${r.occupation.code}), UK` : r.geography ? `${r.geography.name} (${r.geography.code})${r.basis ? `, by ${r.basis === 'workplace' ? 'place of work' : 'place of residence'}` : ''}` : '';
  return `${pounds(a.amount, u.dp)} ${u.per}: ${placeWords(a)} ${who} employee jobs, ${where}, April ${r.year ?? ''} (${r.status ?? ''})`;
}

export const rankTable: Renderer = {
  name: 'earnings-rank',
  canRender: (out, rc) => !rc.fields && !rc.wide && typeof (out.envelope.data as Answer | undefined)?.amount === 'number',
  render: (out, rc) => {
    const wrap = (t: string) => (rc.columns > 0 ? wrapWords(t, rc.columns) : t);
    const a = out.envelope.data as Answer;
    const dp = (UNIT[a.reference.measure ?? ''] ?? { dp: 2 }).dp;
    const lines = rankLines(a);
    const max = Math.max(...lines.map((l) => l.value ?? 0));
    // a line: 2 + label 11 + value 13 + ' ' + bar + '  ◀ this amount' (16): the bar takes what is left
    const width = Math.max(4, Math.min(50, (rc.columns || 80) - 43));
    const body = lines.map((l) => {
      const v = l.value === null ? (l.missing ?? 'not published') : pounds(l.value, dp);
      const bar = rc.options.chart && l.value !== null ? ` ${(l.mark ? '▓' : '█').repeat(Math.max(1, Math.round((l.value / max) * width)))}` : '';
      return `${l.mark ? '▶' : ' '} ${l.label.padEnd(11)}${v.padStart(13)}${bar}${l.mark ? '  ◀ this amount' : ''}`;
    });
    const marked = [...new Set(lines.flatMap((l) => (l.missing && markerOf(l.missing) ? [l.missing] : [])))];
    const key = marked.map((m) => `\n${m} = ${markerOf(m)!.meaning} (ONS key)`).join('');
    const note = typeof out.envelope.meta.note === 'string' ? `\n${wrap(out.envelope.meta.note)}` : '';
    return `${wrap(title(a))}\n${body.join('\n')}${wrap(key)}\n${wrap('Linear interpolation between the published percentiles (ONS ASHE); none beyond p10 or p90.')}${note}\n`;
  },
};

/** The series table's columns in the order they leave a narrow terminal (name and median never do). */
const DROP = ['level', 'code', 'jobs (k)', 'p10', 'p90', 'mean', 'p25', 'p75'];

interface SeriesRecord extends Reference {
  industry?: { code: string; name: string; level: string };
  jobs_thousands?: number | null;
  mean?: number | null;
}

/**
 * The three series routes on a terminal: one line per record with the figures that matter first (median,
 * mean, p10/p25/p75/p90, jobs), ONS's markers shown as ONS prints them (x, .., :, -); the common year,
 * basis, population, measure and status in the title. `--wide` or `--fields` give the generic table.
 */
export const seriesTable: Renderer = {
  name: 'earnings-series',
  canRender: (out, rc) => !rc.fields && !rc.wide && Array.isArray(out.envelope.data),
  render: (out, rc) => {
    const wrap = (t: string) => (rc.columns > 0 ? wrapWords(t, rc.columns) : t);
    const rows = out.envelope.data as SeriesRecord[];
    const note = typeof out.envelope.meta.note === 'string' ? `${wrap(out.envelope.meta.note)}\n` : '';
    if (rows.length === 0) return `${note}no records\n`;
    const r0 = rows[0]!;
    const dp = (UNIT[r0.measure ?? ''] ?? { dp: 2 }).dp;
    const subject = (r: SeriesRecord) => r.geography ?? r.industry ?? r.occupation ?? { code: '', name: '', level: '' };
    const cell = (r: SeriesRecord, field: string, v: number | null | undefined) =>
      v === null || v === undefined ? (r.markers?.[field] ?? '') : pounds(v, dp);
    const cols: Array<[string, (r: SeriesRecord) => string, boolean]> = [
      ['name', (r) => subject(r).name, false],
      ['code', (r) => subject(r).code, false],
      ['level', (r) => (subject(r) as { level?: string }).level ?? '', false],
      ['median', (r) => cell(r, 'median', r.median), true],
      ['mean', (r) => cell(r, 'mean', r.mean), true],
      ['p10', (r) => cell(r, 'percentiles.p10', r.percentiles?.p10), true],
      ['p25', (r) => cell(r, 'percentiles.p25', r.percentiles?.p25), true],
      ['p75', (r) => cell(r, 'percentiles.p75', r.percentiles?.p75), true],
      ['p90', (r) => cell(r, 'percentiles.p90', r.percentiles?.p90), true],
      ['jobs (k)', (r) => (r.jobs_thousands == null ? (r.markers?.jobs_thousands ?? '') : String(r.jobs_thousands)), true],
    ];
    const all = rows.map((r) => cols.map(([, f]) => f(r)));
    const allWidths = cols.map(([h], i) => Math.min(i === 0 ? 34 : 40, Math.max(h.length, ...all.map((c) => c[i]!.length))));
    // Fitted to the width, the answer first: name and median always; the others leave in DROP order
    // (named under the table), then the name is cut (to 12 at least) with an ellipsis.
    const keep = cols.map(() => true);
    const used = () => allWidths.reduce((a, w, i) => a + (keep[i] ? w + 2 : 0), -2);
    const room = rc.columns > 0 ? rc.columns : Infinity;
    for (const h of DROP) if (used() > room) keep[cols.findIndex(([c]) => c === h)] = false;
    if (used() > room) allWidths[0] = Math.max(12, allWidths[0]! - (used() - room));
    const shown = cols.map((_, i) => i).filter((i) => keep[i]);
    const hidden = cols.filter((_, i) => !keep[i]).map(([h]) => h);
    const cells = all.map((c) => shown.map((i) => c[i]!));
    const widths = shown.map((i) => allWidths[i]!);
    const fit = (v: string, w: number) => (v.length > w ? `${v.slice(0, w - 1)}…` : v);
    const fmtRow = (c: string[]) => c.map((v, j) => (cols[shown[j]!]![2] ? v.padStart(widths[j]!) : fit(v, widths[j]!).padEnd(widths[j]!))).join('  ').trimEnd();
    const unit = UNIT[r0.measure ?? '']?.per ?? '';
    const basis = r0.basis ? `, by ${r0.basis === 'workplace' ? 'place of work' : 'place of residence'}` : '';
    const title = `${(r0.measure ?? '').replace(/_/g, ' ')} (${unit}), ${(r0.population ?? '').replace(/_/g, '-')} employee jobs${basis}, April ${r0.year} (${r0.status})`;
    const p = out.envelope.pagination;
    const more = p && p.total > rows.length ? `\n${rows.length} of ${p.total} records (page ${p.page} of ${p.total_pages}; --page, --per-page or --all)` : '';
    const less = hidden.length ? `\n${wrap(`${hidden.length} more column${hidden.length === 1 ? '' : 's'} (--wide or --format json): ${hidden.join(', ')}`)}` : '';
    return `${note}${wrap(title)}\n${fmtRow(shown.map((i) => cols[i]![0]))}\n${cells.map(fmtRow).join('\n')}${less}${more ? `\n${wrap(more.slice(1))}` : ''}\nx: suppressed by ONS (unreliable), ..: disclosive\n`;
  },
};
