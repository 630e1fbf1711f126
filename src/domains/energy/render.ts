/**
 * Terminal rendering of the energy answers: the bill breakdown (`energy bill`, laid out like `tax
 * take-home`) and the cap over time (`energy periods --chart`). Plain text with optional ANSI colour;
 * asciichart loads only when a chart is drawn (src/output/chart.ts).
 */
import { Decimal } from 'decimal.js';
import { fit, plot } from '../../output/chart.js';
import type { BillData } from './calc.js';
import { ansi, money, prose, statementTable } from '../../output/statement.js';

export type { BillData } from './calc.js';

export { money };

/**
 * The consumption as given: every digit of the number (its shortest decimal form, never in exponent
 * notation, never rounded: 0.0049 stays 0.0049), thousands grouped with commas.
 */
export function kwh(n: number): string {
  const [int, frac] = new Decimal(n).toFixed().split('.') as [string, string | undefined];
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${grouped}${frac === undefined ? '' : `.${frac}`} kWh`;
}
const PAYMENT: Record<string, string> = { direct_debit: 'Direct Debit', standard_credit: 'standard credit', prepayment: 'prepayment' };

const table = (rows: Array<[string, string, string?]>, bold: (s: string) => string, dim: (s: string) => string, columns = 0): string =>
  statementTable(rows, { bold, dim, isBold: (a) => a.startsWith('Total') || a === 'Monthly' }, columns);

/** The closing line: the VAT the rates include (per fuel, from meta.vat_rate) and what set them. */
function footer(d: BillData, meta: BillMeta | undefined): string {
  const pct = (v: number | undefined) => (v === undefined ? '5%' : `${new Decimal(v).times(100).toFixed()}%`);
  const fuels = [d.electricity ? 'electricity' : null, d.gas ? 'gas' : null].filter((f): f is 'electricity' | 'gas' => f !== null);
  const rates = fuels.map((f) => pct(meta?.vat_rate?.[f]));
  const vat =
    rates.length === 2 && rates[0] !== rates[1]
      ? fuels.map((f, i) => (rates[i] === '0%' ? `${f} without VAT` : `${f} incl. VAT at ${rates[i]}`)).join(', ')
      : rates[0] === '0%'
        ? 'no VAT'
        : `incl. VAT at ${rates[0] ?? '5%'}`;
  const set = meta?.tariff === 'energy_price_guarantee' ? "the Energy Price Guarantee's rates (what households paid)" : 'rates as the cap sets them (maximums)';
  return `${vat}; ${set}`;
}

export interface BillMeta {
  vat_rate?: { electricity: number; gas: number };
  tariff?: string;
}

/** `columns`: the terminal's width (0 or absent: no limit); the title and the closing line wrap at word boundaries. */
export function renderBill(d: BillData, opts: { color: boolean; meta?: BillMeta; columns?: number }): string {
  const bold = ansi('1', opts.color);
  const dim = ansi('2', opts.color);
  const rows: Array<[string, string, string?]> = [];
  for (const [name, f] of [['Electricity', d.electricity], ['Gas', d.gas]] as const) {
    if (!f) continue;
    rows.push([name, money(f.total)]);
    rows.push(['  energy', money(f.energy_cost), `${kwh(f.kwh)} x ${f.unit_rate.toFixed(2)}p`]);
    rows.push(['  standing charge', money(f.standing_cost), `365 days x ${f.standing_charge.toFixed(2)}p`]);
  }
  rows.push(['---', '']);
  rows.push(['Total a year', money(d.total_annual)]);
  rows.push(['Monthly', money(d.monthly), 'a twelfth of the year']);
  const meter = d.meter === 'multi_register' ? ' · Economy 7' : '';
  const columns = opts.columns ?? 0;
  const title = prose(`Energy bill under the ${opts.meta?.tariff === 'energy_price_guarantee' ? 'Energy Price Guarantee' : 'cap'} ${d.period_id} · ${d.region.name} · ${PAYMENT[d.payment_method] ?? d.payment_method}${meter}`, columns, bold);
  return `${title}\n${table(rows, bold, dim, columns)}\n  ${prose(footer(d, opts.meta), columns > 0 ? columns - 2 : 0, dim, '  ')}\n`;
}

interface PeriodRow {
  period_id: string;
  typical_annual_bill: { direct_debit: number | null };
}

/** The typical Direct Debit dual-fuel bill per period, oldest first (periods without one are skipped). */
export async function periodsChart(rows: PeriodRow[], columns: number): Promise<string> {
  const pts = [...rows].reverse().filter((r) => typeof r.typical_annual_bill?.direct_debit === 'number');
  if (pts.length < 2) return 'not enough periods with a typical bill to chart (need 2 or more)\n';
  const values = fit(pts.map((r) => r.typical_annual_bill.direct_debit as number), Math.max(20, columns - 16));
  const chart = await plot([values], { format: (x) => `£${Math.round(x).toLocaleString('en-GB')}`.padStart(8) });
  const gaps = pts.length < rows.length ? `; ${rows.length - pts.length} period(s) without a published figure left out` : '';
  const title = `Typical dual-fuel bill under the cap (Direct Debit, £/year), ${pts[0]!.period_id} to ${pts[pts.length - 1]!.period_id}, one point per period (periods are not evenly spaced${gaps})`;
  return `${prose(title, columns)}\n${chart}\n`;
}
