/**
 * Reading Ofgem's price-cap levels model (xlsx; also xls/ods) with SheetJS (@e965/xlsx; choice in
 * docs/energy.md). Tables are found by their labels, never by fixed ranges (model versions move sheets
 * and ranges):
 *  - a levels sheet is named `<ElecSingle|ElecMulti|Gas>_<Other|SC|PPM>_<Nil|NNNNkWh|Benchmark>` (Other =
 *    Direct Debit, SC = standard credit, PPM = prepayment; Nil = the level at nil consumption, NNNNkWh (models
 *    to 2025) or Benchmark (2026 models) = at the benchmark consumption); other sheets are ignored;
 *  - the benchmark consumption is read PER PERIOD: a row labelled "Benchmark consumption" (kWh) between the
 *    period row and the first region gives each period column its own kWh (the 2026 models change it inside
 *    one workbook: electricity 3,100 kWh to December 2025, 2,700 from January 2026, 2,500 from July 2026; the
 *    header shows only the latest). Without such a row, a `NNNNkWh` sheet takes the kWh of its name for every
 *    period; a `Benchmark` sheet without it is refused (one value for every column would make older unit
 *    rates up to 24% wrong);
 *  - in a levels sheet, the header row is the first row holding cap-period labels (`Oct-Dec 2025`,
 *    `Oct 2019-Mar 2020`, `Oct 2019 - Mar 2020`); each label's column holds that period's levels;
 *  - each region's block starts at a cell holding the region's name (data/energy/price-cap.yaml `labels`),
 *    left of the first period column, and its `Total` row (the first below the name, before the next
 *    region) holds the region's level in pounds a year;
 *  - a cell above the header states the VAT basis (`excluding VAT` / `excl. VAT` or `including VAT`);
 *    a sheet without one is refused (we could not say what we stored).
 */
import * as XLSX from '@e965/xlsx';
import { checkWorkbookMembers } from '../../../../sync/formats/bounds.js';

export type Fuel = 'electricity' | 'gas';
export type Payment = 'direct_debit' | 'standard_credit' | 'prepayment';
export type Meter = 'single_rate' | 'multi_register';

export interface PeriodLabel {
  period_id: string;
  start_date: string;
  end_date: string;
  label: string;
}

export interface Level {
  period_id: string;
  region_code: string;
  fuel: Fuel;
  payment_method: Payment;
  meter: Meter;
  /** 0 for the Nil sheet, the benchmark kWh otherwise. */
  kwh: number;
  /** Pounds a year as the workbook states it (the cell's value as text). */
  pounds: string;
  vat_basis: 'excluding' | 'including';
  sheet: string;
  cell: string;
}

export interface WorkbookLevels {
  periods: PeriodLabel[];
  levels: Level[];
  sheets: string[];
}

const SHEET_RE = /^(ElecSingle|ElecMulti|Gas)_(Other|SC|PPM)_(Nil|(\d+)\s*kWh|Benchmark)$/i;
/** The label of the per-period benchmark consumption row. */
const BENCHMARK_ROW_RE = /^(benchmark|typical)\s+consumption\b/i;
const PAYMENTS: Record<string, Payment> = { other: 'direct_debit', sc: 'standard_credit', ppm: 'prepayment' };
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MON = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?';
const SAME_YEAR_RE = new RegExp(`^${MON}\\s*[-–]\\s*${MON}\\s+(\\d{4})$`, 'i');
const TWO_YEARS_RE = new RegExp(`^${MON}\\s+(\\d{4})\\s*[-–]\\s*${MON}\\s+(\\d{4})$`, 'i');

/**
 * A levels sheet's name: fuel, meter, payment method and the kWh it states (0 for Nil; the kWh of the name;
 * null for a `…_Benchmark` sheet, whose kWh is read per period from the sheet).
 */
export function parseSheetName(name: string): { fuel: Fuel; meter: Meter; payment: Payment; kwh: number | null; nil: boolean } | null {
  const m = SHEET_RE.exec(name.trim());
  if (!m) return null;
  const kind = m[1]!.toLowerCase();
  const nil = m[3]!.toLowerCase() === 'nil';
  return {
    fuel: kind === 'gas' ? 'gas' : 'electricity',
    meter: kind === 'elecmulti' ? 'multi_register' : 'single_rate',
    payment: PAYMENTS[m[2]!.toLowerCase()]!,
    kwh: nil ? 0 : m[4] ? Number(m[4]) : null,
    nil,
  };
}

function lastDay(year: number, month: number): string {
  const d = new Date(Date.UTC(year, month, 0)); // month is 1-based: day 0 of the next month
  return d.toISOString().slice(0, 10);
}

/** A cap-period column label, or null. */
export function parsePeriodLabel(text: string): PeriodLabel | null {
  const t = text.trim().replace(/\s+/g, ' ');
  let m1: number, y1: number, m2: number, y2: number;
  let m = SAME_YEAR_RE.exec(t);
  if (m) {
    m1 = MONTHS.indexOf(m[1]!.slice(0, 3).toLowerCase()) + 1;
    m2 = MONTHS.indexOf(m[2]!.slice(0, 3).toLowerCase()) + 1;
    y1 = y2 = Number(m[3]);
    if (m2 < m1) return null;
  } else if ((m = TWO_YEARS_RE.exec(t))) {
    m1 = MONTHS.indexOf(m[1]!.slice(0, 3).toLowerCase()) + 1;
    y1 = Number(m[2]);
    m2 = MONTHS.indexOf(m[3]!.slice(0, 3).toLowerCase()) + 1;
    y2 = Number(m[4]);
    if (y2 < y1 || (y2 === y1 && m2 < m1)) return null;
  } else return null;
  const mm = String(m1).padStart(2, '0');
  return { period_id: `${y1}-${mm}`, start_date: `${y1}-${mm}-01`, end_date: lastDay(y2, m2), label: t };
}

export interface RegionLabels {
  code: string;
  labels: readonly string[];
}

type Grid = unknown[][];

function text(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

function vatBasis(grid: Grid, above: number): 'excluding' | 'including' | null {
  let found: 'excluding' | 'including' | null = null;
  for (let r = 0; r < above; r++)
    for (const v of grid[r] ?? []) {
      const t = text(v);
      if (/\bexcl(uding|\.)?\s+VAT\b/i.test(t) || /\bex\.?\s+VAT\b/i.test(t)) found ??= 'excluding';
      else if (/\bincl(uding|\.)?\s+VAT\b/i.test(t)) found ??= 'including';
    }
  return found;
}

/** One levels sheet: its period columns and each region's Total row. */
export function readLevelsSheet(name: string, grid: Grid, regions: readonly RegionLabels[]): { periods: PeriodLabel[]; levels: Level[] } {
  const kind = parseSheetName(name);
  if (!kind) throw new Error(`not a levels sheet: ${name}`);
  let headerRow = -1;
  const cols: Array<{ col: number; period: PeriodLabel }> = [];
  for (let r = 0; r < grid.length && headerRow < 0; r++) {
    const row = grid[r] ?? [];
    for (let c = 0; c < row.length; c++) {
      const p = parsePeriodLabel(text(row[c]));
      if (p) cols.push({ col: c, period: p });
    }
    if (cols.length > 0) headerRow = r;
  }
  if (headerRow < 0) throw new Error(`${name}: no row of cap-period labels (e.g. 'Oct-Dec 2025') found`);
  const basis = vatBasis(grid, headerRow);
  if (!basis) throw new Error(`${name}: no label above the period row says whether the levels include or exclude VAT`);
  const firstCol = Math.min(...cols.map((c) => c.col));
  // Region name rows, in sheet order.
  const labelOf = new Map<string, string>();
  for (const reg of regions) for (const l of reg.labels) labelOf.set(l.toLowerCase(), reg.code);
  const starts: Array<{ row: number; code: string }> = [];
  for (let r = headerRow + 1; r < grid.length; r++) {
    const row = grid[r] ?? [];
    for (let c = 0; c < firstCol; c++) {
      const code = labelOf.get(text(row[c]).toLowerCase());
      if (code) {
        starts.push({ row: r, code });
        break;
      }
    }
  }
  // The benchmark kWh of each period column (a benchmark sheet): its own row, else the sheet name's value.
  const kwhOf = new Map<number, number>();
  if (!kind.nil) {
    const limit = starts.length ? starts[0]!.row : grid.length;
    for (let r = headerRow + 1; r < limit && kwhOf.size === 0; r++) {
      const row = grid[r] ?? [];
      let labelled = false;
      for (let c = 0; c < firstCol; c++) if (BENCHMARK_ROW_RE.test(text(row[c]))) labelled = true;
      if (!labelled) continue;
      for (const { col, period } of cols) {
        const v = row[col];
        const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d[\d,]*$/.test(v.trim()) ? Number(v.replace(/,/g, '')) : NaN;
        if (!Number.isInteger(n) || n <= 0)
          throw new Error(`${name}!${XLSX.utils.encode_cell({ r, c: col })}: the benchmark consumption for ${period.label} is not a whole number of kWh`);
        kwhOf.set(col, n);
      }
    }
    if (kwhOf.size === 0) {
      if (kind.kwh === null)
        throw new Error(`${name}: no 'Benchmark consumption' row giving each period's kWh (a benchmark sheet's single header value would misprice the older periods)`);
      for (const { col } of cols) kwhOf.set(col, kind.kwh);
    }
  }
  const levels: Level[] = [];
  for (let i = 0; i < starts.length; i++) {
    const { row: start, code } = starts[i]!;
    const end = i + 1 < starts.length ? starts[i + 1]!.row : grid.length;
    let total = -1;
    for (let r = start; r < end && total < 0; r++) {
      const row = grid[r] ?? [];
      for (let c = 0; c < firstCol; c++) if (/^total$/i.test(text(row[c]))) total = r;
    }
    if (total < 0) throw new Error(`${name}: region '${code}' has no 'Total' row`);
    for (const { col, period } of cols) {
      const v = (grid[total] ?? [])[col];
      if (typeof v !== 'number' || !Number.isFinite(v))
        throw new Error(`${name}!${XLSX.utils.encode_cell({ r: total, c: col })}: the ${code} total for ${period.label} is not a number`);
      levels.push({
        period_id: period.period_id,
        region_code: code,
        fuel: kind.fuel,
        payment_method: kind.payment,
        meter: kind.meter,
        kwh: kind.nil ? 0 : kwhOf.get(col)!,
        pounds: String(v),
        vat_basis: basis,
        sheet: name,
        cell: XLSX.utils.encode_cell({ r: total, c: col }),
      });
    }
  }
  return { periods: cols.map((c) => c.period), levels };
}

/** Every levels sheet of a workbook file (xlsx, xls or ods). */
export function readWorkbook(buf: Buffer, regions: readonly RegionLabels[]): WorkbookLevels {
  checkWorkbookMembers(buf, 'the workbook'); // bounded before SheetJS inflates it (sync/formats/bounds.ts)
  const names = XLSX.read(buf, { type: 'buffer', bookSheets: true }).SheetNames.filter((n) => parseSheetName(n));
  if (names.length === 0)
    throw new Error("no levels sheets (named like 'ElecSingle_Other_Nil', 'Gas_PPM_12000kWh' or 'Gas_Other_Benchmark') in the workbook");
  const wb = XLSX.read(buf, { type: 'buffer', sheets: names, dense: true });
  const byId = new Map<string, PeriodLabel>();
  const levels: Level[] = [];
  for (const n of names) {
    const ws = wb.Sheets[n];
    if (!ws) continue;
    const grid = XLSX.utils.sheet_to_json<unknown[]>(ws, { header: 1, raw: true, blankrows: true, defval: null });
    const s = readLevelsSheet(n, grid, regions);
    for (const p of s.periods) {
      const prev = byId.get(p.period_id);
      if (prev && prev.end_date !== p.end_date) throw new Error(`${n}: period ${p.label} disagrees with '${prev.label}' of another sheet`);
      byId.set(p.period_id, p);
    }
    levels.push(...s.levels);
  }
  const periods = [...byId.values()].sort((a, b) => (a.start_date < b.start_date ? -1 : 1));
  return { periods, levels, sheets: names };
}
