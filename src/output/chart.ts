/** Terminal charts (asciichart), used only on a TTY with --chart. */

interface Point {
  date?: string;
  average_price?: number | null;
  region?: { name?: string; code?: string };
}

/** Resample a series to at most `width` points (evenly spaced picks) so the chart fits the terminal. */
export function fit(values: number[], width: number): number[] {
  if (values.length <= width) return values;
  const out: number[] = [];
  for (let i = 0; i < width; i++) out.push(values[Math.round((i * (values.length - 1)) / (width - 1))]!);
  return out;
}

export async function plot(series: number[][], opts: { height?: number; format?: (x: number) => string } = {}): Promise<string> {
  const { default: asciichart } = await import('asciichart');
  return asciichart.plot(series.length === 1 ? series[0]! : series, {
    height: opts.height ?? 15,
    ...(opts.format ? { format: opts.format } : {}),
    ...(series.length > 1 ? { colors: [asciichart.blue, asciichart.green] } : {}),
  });
}

/** HPI average price over time, one line per the first region in the data. */
export async function priceChart(rows: Point[], columns: number): Promise<string> {
  // One series: the first region in the answer (a chart mixing regions would mean nothing).
  const codes = [...new Set(rows.map((r) => r.region?.code ?? r.region?.name ?? ''))];
  const first = codes[0];
  const pts = rows.filter((r) => (r.region?.code ?? r.region?.name ?? '') === first && typeof r.average_price === 'number');
  const note = codes.length > 1 ? ` (first of ${codes.length} regions in this page; use --region)` : '';
  if (pts.length < 2) return 'not enough points to chart (need 2 or more months with an average price)\n';
  const values = fit(pts.map((r) => r.average_price as number), Math.max(20, columns - 16));
  const chart = await plot([values], { format: (x) => `£${Math.round(x).toLocaleString('en-GB')}`.padStart(10) });
  const name = pts[0]!.region?.name ?? '';
  return `${name} average price, ${pts[0]!.date} to ${pts[pts.length - 1]!.date}${note}\n${chart}\n`;
}
