/**
 * Terminal rendering of take-home results: a readable breakdown (`renderTakeHome`), a one-row-per-income
 * table for `--sweep` (`renderSweep`) and a chart of net pay and marginal rate against gross (`sweepChart`).
 * Plain text with optional ANSI colour; asciichart loads only when a chart is drawn (src/output/chart.ts).
 */
import { fit, plot } from '../../output/chart.js';

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
}

const ansi = (code: string, on: boolean) => (s: string) => (on ? `\u001b[${code}m${s}\u001b[0m` : s);

/** £12,345.67 */
export function money(n: number): string {
  const neg = n < 0;
  const [int, dec] = Math.abs(n).toFixed(2).split('.');
  return `${neg ? '-' : ''}£${int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${dec}`;
}

/** 0.2 -> 20%, 0.1273 -> 12.73%, 0.675 -> 67.5% */
export function pct(r: number): string {
  return `${Number((r * 100).toFixed(2))}%`;
}

const REGION: Record<string, string> = { england_wales_ni: 'England, Wales & NI', scotland: 'Scotland' };

const bandLabel = (b: string) => b.replace(/_rate$/, '').replace(/_/g, ' ');

/** Length as displayed (without ANSI colour codes). */
const visible = (s: string): number => s.replace(/\u001b\[[0-9;]*m/g, '').length;

function table(rows: Array<[string, string, string?]>, bold: (s: string) => string, dim: (s: string) => string): string {
  const w0 = Math.max(...rows.map((r) => visible(r[0])));
  const w1 = Math.max(...rows.map((r) => visible(r[1])));
  return rows
    .map(([a, b, c]) => {
      if (a === '---') return dim('─'.repeat(w0 + w1 + 4));
      const line = `  ${a.padEnd(w0)}  ${' '.repeat(w1 - visible(b))}${b}${c ? `  ${dim(c)}` : ''}`;
      return a.startsWith('Net ') || a === 'Gross income' ? bold(line) : line;
    })
    .join('\n');
}

export function renderTakeHome(data: TakeHomeData, opts: { color: boolean }): string {
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
  const title = bold(`Take-home pay ${data.tax_year} · ${REGION[data.region] ?? data.region}`);
  return `${title}\n${table(rows, bold, dim)}\n`;
}

/** One row per gross income (`tax take-home --sweep`). */
export function renderSweep(rows: TakeHomeData[], opts: { color: boolean } = { color: false }): string {
  const bold = ansi('1', opts.color);
  const head = ['Gross', 'Income tax', 'NI', 'Student loan', 'Pension', 'Net annual', 'Net monthly', 'Effective', 'Marginal'];
  const body = rows.map((r) => [
    money(r.gross_income),
    money(r.deductions.income_tax.amount),
    money(r.deductions.national_insurance.employee),
    money(r.deductions.student_loan?.amount ?? 0),
    money(r.deductions.pension?.amount ?? 0),
    money(r.net_annual),
    money(r.net_monthly),
    pct(r.effective_rate ?? (r.deductions.income_tax.amount + r.deductions.national_insurance.employee) / (r.gross_income || 1)),
    pct(r.marginal_rate),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  return `${bold(line(head))}\n${body.map(line).join('\n')}\n`;
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
