/**
 * Terminal rendering of take-home results: a readable breakdown (`renderTakeHome`), a one-row-per-income
 * table for `--sweep` (`renderSweep`) and a chart of net pay and marginal rate against gross (`sweepChart`).
 * Plain text with optional ANSI colour; asciichart loads only when a chart is drawn (src/output/chart.ts).
 */
import { fit, plot } from '../../output/chart.js';
import { ansi, money, prose, statementTable } from '../../output/statement.js';
import { wrapWords } from '../../output/wrap.js';

/** The take-home `data` object (POST /v1/tax/take-home/calculate), as far as rendering needs it. */
export interface TakeHomeData {
  gross_income: number;
  region: string;
  tax_year: string;
  deductions: {
    income_tax: {
      amount: number;
      personal_allowance: number;
      effective_rate: number;
      breakdown: Array<{ band: string; rate: number; taxable_amount: number; tax: number }>;
      marriage_allowance?: { tax_reduction: number; transferred_amount: number; role?: string };
    };
    national_insurance: { employee: number; breakdown: Array<{ from: number; to: number | null; rate: number; amount: number }> };
    student_loan?: { amount: number; repayments: Array<{ plan_type: string; amount: number }> };
    pension?: { type: string; contribution_percent: number; gross_contribution: number; tax_relief_at_source: number; amount: number };
  };
  net_annual: number;
  net_monthly: number;
  net_weekly: number;
  total_deductions: number;
  effective_rate?: number;
  marginal_rate: number;
  employer_costs: { employer_ni: number; total_cost_to_employer: number };
  /** `tax take-home --rank`: where the gross sits among ONS ASHE full-time annual gross pay (null: not available, see rank_note). */
  rank?: TakeHomeRank | null;
  rank_note?: string;
}

export interface TakeHomeRank {
  percentile: number | null;
  percentile_bound: 'below_p10' | 'above_p90' | null;
  year: number;
  area: string;
  median: number | null;
}

/** The take-home table's rank row: percentile, or the bound, with the reference's median and year. */
function rankRow(data: TakeHomeData): [string, string, string?] | undefined {
  if (data.rank === undefined) return undefined;
  const r = data.rank;
  if (r === null) return ['Gross among full-time jobs', 'n/a', data.rank_note];
  const where = r.percentile !== null ? `percentile ${r.percentile}` : r.percentile_bound === 'below_p10' ? 'below p10' : r.percentile_bound === 'above_p90' ? 'above p90' : 'not placed';
  return ['Gross among full-time jobs', where, `${r.area}, April ${r.year}${r.median !== null ? `, median ${money(r.median)}` : ''} (ONS ASHE)`];
}

export { money };

/** 0.2 -> 20%, 0.1273 -> 12.73%, 0.675 -> 67.5% */
export function pct(r: number): string {
  return `${Number((r * 100).toFixed(2))}%`;
}

const REGION: Record<string, string> = { england_wales_ni: 'England, Wales & NI', scotland: 'Scotland' };

const bandLabel = (b: string) => b.replace(/_rate$/, '').replace(/_/g, ' ');

const table = (rows: Array<[string, string, string?]>, bold: (s: string) => string, dim: (s: string) => string, columns = 0): string =>
  statementTable(rows, { bold, dim, isBold: (a) => a.startsWith('Net ') || a === 'Gross income' }, columns);

/** `columns`: the terminal's width (0 or absent: no limit); a note too long for its line wraps at word boundaries. */
export function renderTakeHome(data: TakeHomeData, opts: { color: boolean; columns?: number }): string {
  const bold = ansi('1', opts.color);
  const dim = ansi('2', opts.color);
  const red = ansi('31', opts.color);
  const green = ansi('32', opts.color);
  const d = data.deductions;
  const rows: Array<[string, string, string?]> = [];
  rows.push(['Gross income', money(data.gross_income)]);
  if (d.pension && d.pension.type === 'salary_sacrifice') rows.push(['Salary sacrifice (pension)', red(`-${money(d.pension.amount)}`), `${pct(d.pension.contribution_percent / 100)} of gross`]);
  rows.push(['Personal allowance', money(d.income_tax.personal_allowance)]);
  rows.push(['---', '']);
  rows.push(['Income tax', red(`-${money(d.income_tax.amount)}`), `effective ${pct(d.income_tax.effective_rate)}`]);
  for (const b of d.income_tax.breakdown) rows.push([`  ${bandLabel(b.band)} ${pct(b.rate)}`, money(b.tax), `on ${money(b.taxable_amount)}`]);
  if (d.income_tax.marriage_allowance && d.income_tax.marriage_allowance.role !== 'transferor') {
    rows.push(['  marriage allowance', green(`-${money(d.income_tax.marriage_allowance.tax_reduction)}`)]);
  }
  rows.push(['National Insurance', red(`-${money(d.national_insurance.employee)}`)]);
  for (const b of d.national_insurance.breakdown) {
    rows.push([`  ${pct(b.rate)} ${money(b.from)}${b.to === null ? '+' : `–${money(b.to)}`}`, money(b.amount)]);
  }
  if (d.student_loan) {
    rows.push(['Student loan', red(`-${money(d.student_loan.amount)}`)]);
    for (const r of d.student_loan.repayments) rows.push([`  ${r.plan_type.replace('_', ' ')}`, money(r.amount)]);
  }
  if (d.pension && d.pension.type !== 'salary_sacrifice') {
    const note = d.pension.type === 'relief_at_source' ? `${money(d.pension.gross_contribution)} into the pot incl. ${money(d.pension.tax_relief_at_source)} relief` : `net pay, ${pct(d.pension.contribution_percent / 100)} of gross`;
    rows.push(['Pension', red(`-${money(d.pension.amount)}`), note]);
  }
  rows.push(['---', '']);
  rows.push(['Total deductions', red(`-${money(data.total_deductions)}`)]);
  rows.push(['Net annual', green(money(data.net_annual))]);
  rows.push(['Net monthly', green(money(data.net_monthly))]);
  rows.push(['Net weekly', green(money(data.net_weekly))]);
  rows.push(['---', '']);
  if (data.effective_rate !== undefined) rows.push(['Effective rate', pct(data.effective_rate), 'tax + NI + student loan']);
  rows.push(['Marginal rate', pct(data.marginal_rate), 'on the next £1 of gross']);
  rows.push(['Employer NI', money(data.employer_costs.employer_ni)]);
  rows.push(['Cost to employer', money(data.employer_costs.total_cost_to_employer)]);
  const rank = rankRow(data);
  if (rank) rows.push(['---', ''], rank);
  const title = prose(`Take-home pay ${data.tax_year} · ${REGION[data.region] ?? data.region}`, opts.columns ?? 0, bold);
  return `${title}\n${table(rows, bold, dim, opts.columns)}\n`;
}

/**
 * One row per gross income (`tax take-home --sweep`). Student loan and pension columns appear only when
 * some row has one; at a narrow terminal the per-period columns go first (net monthly, then NI).
 */
export function renderSweep(rows: TakeHomeData[], opts: { color: boolean; columns?: number } = { color: false }): string {
  const bold = ansi('1', opts.color);
  const cols: Array<[string, (r: TakeHomeData) => string, boolean]> = [
    ['Gross', (r) => money(r.gross_income), true],
    ['Income tax', (r) => money(r.deductions.income_tax.amount), true],
    ['NI', (r) => money(r.deductions.national_insurance.employee), true],
    ['Student loan', (r) => money(r.deductions.student_loan?.amount ?? 0), rows.some((r) => (r.deductions.student_loan?.amount ?? 0) !== 0)],
    ['Pension', (r) => money(r.deductions.pension?.amount ?? 0), rows.some((r) => (r.deductions.pension?.amount ?? 0) !== 0)],
    ['Net annual', (r) => money(r.net_annual), true],
    ['Net monthly', (r) => money(r.net_monthly), true],
    ['Effective', (r) => pct(r.effective_rate ?? (r.deductions.income_tax.amount + r.deductions.national_insurance.employee) / (r.gross_income || 1)), true],
    ['Marginal', (r) => pct(r.marginal_rate), true],
  ];
  let shown = cols.filter((c) => c[2]);
  const widthOf = (cs: typeof shown) => cs.reduce((a, [h, f]) => a + Math.max(h.length, ...rows.map((r) => f(r).length)) + 2, -2);
  for (const drop of ['Net monthly', 'NI', 'Pension', 'Student loan']) {
    if (!opts.columns || widthOf(shown) <= opts.columns) break;
    shown = shown.filter((c) => c[0] !== drop);
  }
  const head = shown.map((c) => c[0]);
  const body = rows.map((r) => shown.map((c) => c[1](r)));
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  return `${bold(line(head))}\n${body.map(line).join('\n')}\n`;
}

/**
 * `tax compare`: the headline figures of scenarios A and B side by side, and B minus A. At a terminal
 * narrower than the lines (`columns`), the column headings wrap at word boundaries onto more heading lines
 * (`A (England, Wales & NI)` over two), down to the width of their figures: the figures are never cut.
 */
export function renderCompare(
  data: { tax_year: string; scenario_a: TakeHomeData; scenario_b: TakeHomeData },
  opts: { color: boolean; columns?: number },
): string {
  const bold = ansi('1', opts.color);
  const a = data.scenario_a;
  const b = data.scenario_b;
  const lines: Array<[string, (d: TakeHomeData) => number, 'money' | 'rate']> = [
    ['Gross income', (d) => d.gross_income, 'money'],
    ['Income tax', (d) => d.deductions.income_tax.amount, 'money'],
    ['National Insurance', (d) => d.deductions.national_insurance.employee, 'money'],
    ['Student loan', (d) => d.deductions.student_loan?.amount ?? 0, 'money'],
    ['Pension', (d) => d.deductions.pension?.amount ?? 0, 'money'],
    ['Total deductions', (d) => d.total_deductions, 'money'],
    ['Net annual', (d) => d.net_annual, 'money'],
    ['Net monthly', (d) => d.net_monthly, 'money'],
    ['Effective rate', (d) => d.effective_rate ?? 0, 'rate'],
    ['Marginal rate', (d) => d.marginal_rate, 'rate'],
  ];
  const fmt = (n: number, kind: 'money' | 'rate') => (kind === 'money' ? money(n) : pct(n));
  // The difference in pence (money) or in hundredths of a percentage point (rates): exact, no float drift.
  const diff = (x: number, y: number, kind: 'money' | 'rate') => {
    if (kind === 'money') {
      const p = Math.round(y * 100) - Math.round(x * 100);
      return `${p > 0 ? '+' : ''}${money(p / 100)}`;
    }
    const bp = Math.round(y * 10000) - Math.round(x * 10000);
    return `${bp > 0 ? '+' : ''}${Number((bp / 100).toFixed(2))} pts`;
  };
  const rows = lines
    .filter(([label, f]) => !(label === 'Student loan' || label === 'Pension') || f(a) !== 0 || f(b) !== 0)
    .map(([label, f, kind]) => [label, fmt(f(a), kind), fmt(f(b), kind), diff(f(a), f(b), kind)]);
  const head = ['', `A (${REGION[a.region] ?? a.region})`, `B (${REGION[b.region] ?? b.region})`, 'B − A'];
  const heads = fitHeadings(head, rows, opts.columns ?? 0);
  const w = heads.map((h, i) => Math.max(...h.map((l) => l.length), ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(w[0]!) : c.padStart(w[i]!))).join('  ');
  const headLines = Array.from({ length: Math.max(...heads.map((h) => h.length)) }, (_, k) => line(heads.map((h) => h[k] ?? '')));
  const title = prose(`Compare ${data.tax_year}`, opts.columns ?? 0, bold);
  return `${title}\n${headLines.map((l) => bold(l.trimEnd())).join('\n')}\n${rows.map(line).join('\n')}\n`;
}

/**
 * Headings of a two-space-separated table (first column left, the others figures) as lines each: whole
 * when the table fits `columns` (0: always), else each figure column's heading wrapped at word boundaries
 * to the narrowest width that fits, never below its widest figure or its longest word, widest first.
 */
function fitHeadings(head: readonly string[], rows: readonly string[][], columns: number): string[][] {
  const figures = head.map((_, i) => Math.max(0, ...rows.map((r) => r[i]!.length)));
  const floor = head.map((h, i) => (i === 0 ? Math.max(h.length, figures[i]!) : Math.max(figures[i]!, ...h.split(' ').map((x) => x.length))));
  const width = head.map((h, i) => Math.max(h.length, figures[i]!));
  const total = () => width.reduce((x, y) => x + y, 0) + 2 * (width.length - 1);
  while (columns > 0 && total() > columns) {
    // the column whose heading is furthest above its floor gives up one character
    const i = width.reduce((best, wi, j) => (wi - floor[j]! > width[best]! - floor[best]! ? j : best), 0);
    if (width[i]! <= floor[i]!) break;
    width[i]! -= 1;
  }
  return head.map((h, i) => (h.length <= width[i]! ? [h] : wrapWords(h, width[i]!).split('\n')));
}

const BOX_LABELS: Record<string, string> = {
  box_1: 'VAT due on sales and other outputs',
  box_2: 'VAT due on acquisitions (NI from EU)',
  box_3: 'Total VAT due (1 + 2)',
  box_4: 'VAT reclaimed on purchases',
  box_5: 'Net VAT to pay or reclaim',
  box_6: 'Total sales ex VAT (whole £)',
  box_7: 'Total purchases ex VAT (whole £)',
  box_8: 'Goods supplied to EU (NI, whole £)',
  box_9: 'Goods acquired from EU (NI, whole £)',
};

/** `tax vat-return`: the nine boxes and the warnings; the breakdown with --wide or --format json. */
export function renderVatReturn(
  data: { return_period: { start_date: string; end_date: string }; boxes: Record<string, { value: number }>; warnings?: unknown[] },
  opts: { color: boolean },
): string {
  const bold = ansi('1', opts.color);
  const dim = ansi('2', opts.color);
  const rows = Object.entries(data.boxes).map(([k, v]) => [`Box ${k.replace('box_', '')}`, BOX_LABELS[k] ?? '', money(v.value)] as const);
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  const w2 = Math.max(...rows.map((r) => r[2].length));
  const body = rows.map(([a, b, c]) => `  ${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c.padStart(w2)}`).join('\n');
  const warnings = (data.warnings ?? []).map((w) => {
    const x = w as { code?: string; message?: string };
    return `warning ${x.code ?? ''}: ${x.message ?? JSON.stringify(w)}\n`;
  });
  const tail = 'breakdown and rounding: --wide or --format json';
  return `${bold(`VAT return ${data.return_period.start_date} to ${data.return_period.end_date}`)}\n${body}\n${warnings.join('')}${dim(tail)}\n`;
}

/** Net pay and marginal rate against gross, two asciichart panels (resampled to at most 100 columns). */
export async function sweepChart(rows: TakeHomeData[]): Promise<string> {
  if (rows.length === 0) return 'No rows.\n';
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  const netSeries = fit(rows.map((r) => r.net_annual), 100);
  const net = await plot([netSeries], { height: 12, format: (x) => money(Math.round(x)).replace(/\.00$/, '').padStart(10) });
  const mr = await plot([fit(rows.map((r) => r.marginal_rate * 100), 100)], { height: 8, format: (x) => `${x.toFixed(0).padStart(8)}%` });
  const axis = `gross ${money(first.gross_income)} → ${money(last.gross_income)} (${netSeries.length} points)`;
  return `Net annual pay\n${net}\n\nMarginal rate\n${mr}\n${' '.repeat(11)}${axis}\n`;
}
