/**
 * `publicdata area` on a terminal: one report, a heading per section, small aligned tables, a sparkline of
 * crimes by month; every line fits the terminal (80 columns by default). `--format json` prints the envelope.
 */
import type { Renderer } from '../../output/types.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const BARS = '▁▂▃▄▅▆▇█';
/** One character per value, scaled from zero to the maximum. */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(0, ...values);
  return values.map((v) => (max === 0 ? BARS[0] : BARS[Math.min(7, Math.round((v / max) * 7))])).join('');
}

const money = (n: unknown) => (typeof n === 'number' ? `£${n.toLocaleString('en-GB', { maximumFractionDigits: 2 })}` : 'n/a');
const num = (n: unknown) => (typeof n === 'number' ? n.toLocaleString('en-GB') : 'n/a');
const cut = (s: string, w: number) => (s.length > w ? `${s.slice(0, Math.max(0, w - 1))}…` : s);

function rows(pairs: ReadonlyArray<[string, string]>, width: number): string[] {
  const k = Math.min(28, Math.max(...pairs.map(([a]) => a.length), 0));
  return pairs.map(([a, b]) => cut(`  ${cut(a, k).padEnd(k)}  ${b}`, width));
}

function section(name: string, s: Json, width: number): string[] {
  const head = `${name.replace(/_/g, ' ').toUpperCase()}${s.as_of ? ` (as of ${s.as_of})` : ''}`;
  if (s.status === 'not_synced') return [head, cut(`  not synced: run '${s.sync}'`, width)];
  if (s.status !== 'ok') return [head, cut(`  ${s.status.replace(/_/g, ' ')}: ${s.note ?? ''}`, width)];
  const out = [head];
  switch (name) {
    case 'property': {
      for (const k of ['sector', 'district'] as const) {
        const p = s.price_paid?.[k];
        if (p) out.push(...rows([[`sales ${p.area} ${p.months.from}..${p.months.to}`, `${num(p.sales)}, median ${money(p.median_price)}, mean ${money(p.mean_price)}`]], width));
      }
      if (s.hpi) out.push(...rows([[`HPI ${s.hpi.area} ${s.hpi.month}`, `${money(s.hpi.average_price)} (${s.hpi.annual_change_percent ?? 'n/a'}% a year)`]], width));
      if (s.council_tax) out.push(...rows([[`council tax ${s.council_tax.year}`, `band D ${money(s.council_tax.band_d)}`]], width));
      break;
    }
    case 'crime':
      out.push(...rows([[`crimes within ${s.radius_km} km`, `${num(s.total)} (${s.months.from}..${s.months.to})`]], width));
      out.push(cut(`  by month  ${sparkline((s.by_month as Json[]).map((m) => m.count))}`, width));
      out.push(...rows((s.by_category as Json[]).slice(0, 5).map((c) => [c.category_label ?? c.category, num(c.count)]), width));
      break;
    case 'schools':
      out.push(...rows([[`schools within ${s.radius_km} km`, num(s.count)], ...Object.entries(s.by_outcome as Record<string, number>).map(([k, v]) => [`  ${k}`, num(v)] as [string, string])], width));
      out.push(...rows((s.nearest as Json[]).slice(0, 5).map((x) => [x.name, `${x.phase ?? ''} ${x.distance_km} km`]), width));
      break;
    case 'food_hygiene':
      out.push(...rows([[`establishments within ${s.radius_km} km`, num(s.count)], ['rated 4 or 5', s.share_4_or_5 === null ? 'n/a' : `${Math.round(s.share_4_or_5 * 100)}%`]], width));
      out.push(...rows((s.lowest_rated as Json[]).map((x) => [x.business_name, `rating ${x.rating}, ${x.distance_km} km`]), width));
      break;
    case 'road_safety':
      out.push(...rows([[`collisions ${s.years.from}..${s.years.to}`, `${num(s.collisions)}: ${s.by_severity.fatal} fatal, ${s.by_severity.serious} serious, ${s.by_severity.slight} slight`], ['casualties', num(s.casualties)]], width));
      break;
    case 'traffic':
      out.push(...rows((s.count_points as Json[]).map((c) => [`${c.road_name} (${c.count_point_id})`, `${num(c.all_motor_vehicles)} vehicles/day ${c.year}, ${c.distance_km} km`]), width));
      break;
    case 'earnings':
      out.push(...rows((['local_authority', 'region', 'country'] as const).filter((k) => s[k]).map((k) => [`${s[k].name} ${s[k].year}`, `median ${money(s[k].median)}`]), width));
      if (s.take_home_at_median) out.push(...rows([[`take-home at ${money(s.take_home_at_median.gross)}`, `${money(s.take_home_at_median.net)} (${s.take_home_at_median.tax_year})`]], width));
      break;
    case 'companies':
      out.push(...rows([[`active companies in ${s.sector}`, num(s.active_companies)], ['incorporated in 12 months', num(s.incorporated_last_12_months)], ...(s.by_sic_section as Json[]).map((x) => [`  ${x.section} ${x.label}`, num(x.count)] as [string, string])], width));
      break;
    case 'energy':
      out.push(...rows([[`price cap ${s.period_id}`, `typical bill ${money(s.typical_annual_bill)} a year (GB average, Direct Debit)`]], width));
      break;
    case 'calendar':
      out.push(...rows([['next bank holiday', s.next_bank_holiday ? `${s.next_bank_holiday.date} ${s.next_bank_holiday.title}` : 'none loaded']], width));
      break;
  }
  return out;
}

export const areaReport: Renderer = {
  name: 'area-report',
  canRender: (_o, rc) => !rc.fields,
  render: (out, rc) => {
    const width = Math.min(rc.columns || 80, 80);
    const d = out.envelope.data as Json;
    const pc = d.postcode;
    const where = [pc.ward?.name, pc.local_authority?.name ?? pc.local_authority?.code, pc.country?.name].filter(Boolean).join(', ');
    const loc = pc.location ? `${pc.location.latitude}, ${pc.location.longitude}` : 'no grid reference';
    const lines = [cut(`${pc.postcode}  ${where}`, width), cut(`  ${pc.status}; ${loc}`, width), ''];
    for (const [name, s] of Object.entries(d.sections as Record<string, Json>)) lines.push(...section(name, s, width), '');
    return `${lines.join('\n')}`;
  },
};
