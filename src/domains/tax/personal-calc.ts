/**
 * Personal tax calculators: income tax (rUK and Scotland), National Insurance (Class 1 employee and employer,
 * Class 2, Class 4), student loans, pension contributions and take-home pay. Pure functions on integer pence
 * and integer parts-per-million rates (see personal-params.ts); no float arithmetic touches an amount.
 *
 * Rounding rules (docs/tax-personal.md "Rounding"):
 *  - income tax: the tax of each band is rounded DOWN to the penny (fractions of a penny disregarded, in the
 *    taxpayer's favour; HMRC's own calculation works in whole pence). Band slices are exact pence.
 *  - the personal allowance taper reduction (1 for every 2 over the threshold, ITA 2007 s.35) is exact in pence
 *    for whole-pound incomes; where it is not (relief-at-source contributions in pence) it is rounded down.
 *  - National Insurance (Class 1 employee/employer, Class 4): each band's contribution is rounded to the nearest
 *    penny, an exact half penny rounded DOWN: HMRC's exact percentage method (CWG2, "Calculating NICs using the
 *    exact percentage method": round to the nearest penny, 0.5p or less down).
 *  - student loan: rate x (income - threshold), rounded DOWN to the whole pound, each plan separately
 *    ("Student Loan and or Postgraduate Loan deductions are rounded down to the nearest whole pound", HMRC
 *    Collection of Student Loans Manual CSLM13013; net deduction likewise, CSLM18025; hmrc/tax-kalculator).
 *  - pension contribution: percent of gross, rounded half-up to the penny.
 */
import { applyPpm as mulRate, PPM, roundToPounds } from '../../money.js';
import type { Band, Category, NiParams, YearParams } from './personal-params.js';


// ---------------------------------------------------------------- income tax

export type Region = 'england_wales_ni' | 'scotland';

export interface IncomeTaxInput {
  /** Gross income for tax (after salary sacrifice and net-pay pension contributions), pence. */
  grossP: number;
  region: Region;
  maRecipient?: boolean;
  maTransferor?: boolean;
  bpa?: boolean;
  /** Relief-at-source gross contributions: reduce adjusted net income (taper) and extend the bands. */
  rasP?: number;
}

export interface BandSlice {
  band: Band;
  amountP: number;
  taxP: number;
}

export interface IncomeTaxResult {
  paP: number;
  taxableP: number;
  slices: BandSlice[];
  taxBeforeMaP: number;
  maReductionP: number;
  totalP: number;
  /** Rate (ppm) of the band the next pound of taxable income falls in; 0 inside the allowance. */
  marginBandPpm: number;
  /** The personal allowance is being tapered at this income (the 60% band). */
  taperActive: boolean;
}

export class MaIneligible extends Error {}

export function incomeTax(y: YearParams, inp: IncomeTaxInput): IncomeTaxResult {
  const it = y.it;
  const rasP = inp.rasP ?? 0;
  const aniP = inp.grossP - rasP;
  let paP = it.paP;
  let taperActive = false;
  if (it.taperThresholdP !== null && aniP >= it.taperThresholdP) {
    const red = mulRate(aniP - it.taperThresholdP, it.taperPpm, 'down');
    paP = paP > red ? paP - red : 0;
    taperActive = paP > 0; // the next pound of income reduces the allowance (from exactly the threshold)
  }
  if (inp.maTransferor && it.ma) paP = paP > it.ma.transferableP ? paP - it.ma.transferableP : 0;
  if (inp.bpa && it.bpaP !== null) paP += it.bpaP; // added after any Marriage Allowance transfer; never tapered
  const taxableP = inp.grossP > paP ? inp.grossP - paP : 0;
  const scot = inp.region === 'scotland';
  const bands = scot ? it.scot : it.ruk;
  // Relief at source extends every limit above which the rate exceeds the relief (basic) rate (ITA 2007 s.192;
  // Scotland: the basic, intermediate, higher and advanced limits).
  const slices: BandSlice[] = [];
  let lower = 0;
  let total = 0;
  let marginBandPpm = 0;
  let marginFound = false;
  let maLimitP = Infinity;
  const maLast = scot ? it.maLastBandScot : it.maLastBandRuk;
  for (let i = 0; i < bands.length; i++) {
    const b = bands[i]!;
    let limit = b.limitP;
    if (rasP > 0 && limit !== Infinity) {
      const next = bands[i + 1];
      if (next && next.ppm > it.basicPpm) limit += rasP;
    }
    if (i === maLast) maLimitP = limit;
    if (!marginFound && taxableP < limit) {
      marginBandPpm = b.ppm;
      marginFound = true;
    }
    if (taxableP > lower) {
      const top = taxableP < limit ? taxableP : limit;
      const amountP = top - lower;
      const taxP = mulRate(amountP, b.ppm, 'down');
      slices.push({ band: b, amountP, taxP });
      total += taxP;
    }
    lower = limit;
  }
  if (inp.grossP < paP) marginBandPpm = 0;
  let maReductionP = 0;
  if (inp.maRecipient) {
    if (!it.ma || taxableP > maLimitP) throw new MaIneligible(it.ma ? 'taxable income above the limit' : 'no Marriage Allowance this year');
    maReductionP = total < it.ma!.reductionP ? total : it.ma!.reductionP;
  }
  return {
    paP,
    taxableP,
    slices,
    taxBeforeMaP: total,
    maReductionP,
    totalP: total - maReductionP,
    marginBandPpm: inp.maRecipient && total < (it.ma?.reductionP ?? 0) ? 0 : marginBandPpm,
    taperActive,
  };
}

// ---------------------------------------------------------------- National Insurance, Class 1

export interface NiSlice {
  band: string;
  fromP: number;
  toP: number | null;
  rate: number;
  earningsP: number;
  amountP: number;
}

export interface Class1Result {
  employeeP: number;
  employerP: number;
  employee: NiSlice[];
  employer: NiSlice[];
  /** Employee rate (ppm) on the next pound of earnings. */
  employeeMarginPpm: number;
}

function slice(band: string, fromP: number, toP: number | null, rate: number, ppm: number, eP: number): NiSlice | null {
  if (eP <= fromP) return null;
  const top = toP === null || eP < toP ? eP : toP;
  const earningsP = top - fromP;
  return { band, fromP, toP, rate, earningsP, amountP: mulRate(earningsP, ppm, 'half-down') };
}

/** Class 1 NI on annual earnings (annual earnings period: the same thresholds for the standard and directors' methods). */
export function class1(ni: NiParams, eP: number, cat?: Category): Class1Result {
  const employee: NiSlice[] = [];
  const employer: NiSlice[] = [];
  let margin = 0;
  if (ni.structure === 'entry_charge') {
    // Before 6 April 1999: once earnings reach the LEL the employee pays the entry rate on the first LEL and the
    // main rate from LEL to UEL; the employer pays the slab rate of the earnings' bracket on ALL earnings.
    if (eP >= ni.lelP) {
      employee.push({ band: 'entry_charge', fromP: 0, toP: ni.lelP, rate: ni.entry, earningsP: ni.lelP, amountP: mulRate(ni.lelP, ni.entryPpm, 'half-down') });
      const m = slice('lel_to_uel', ni.lelP, ni.uelP, ni.main, ni.mainPpm, eP);
      if (m) employee.push(m);
      const slabs = ni.slabs!;
      let k = 0;
      for (let i = 0; i < slabs.length; i++) if (eP >= slabs[i]!.fromP) k = i;
      const s = slabs[k]!;
      const next = slabs[k + 1];
      employer.push({ band: `slab_${k + 1}`, fromP: s.fromP, toP: next ? next.fromP : null, rate: s.rate, earningsP: eP, amountP: mulRate(eP, s.ppm, 'half-down') });
      margin = eP < ni.uelP ? ni.mainPpm : 0;
    }
  } else {
    let mainPpm = ni.mainPpm;
    let upperPpm = ni.upperPpm;
    let main = ni.main;
    let upper = ni.upper;
    let erPpm = ni.erPpm;
    let er = ni.er;
    let ustP: number | null = null;
    if (cat) {
      mainPpm = cat.eeMainPpm;
      upperPpm = cat.eeUpperPpm;
      main = cat.employee.rate_main ?? 0;
      upper = cat.employee.rate_upper ?? 0;
      erPpm = cat.erPpm;
      er = cat.employer.rate ?? 0;
      ustP = cat.employer.reduced_rate ? cat.ustP : null;
    }
    const noEmployee = cat !== undefined && cat.employee.rate_main === null;
    if (!noEmployee) {
      const a = slice('primary_threshold_to_uel', ni.ptP, ni.uelP, main, mainPpm, eP);
      if (a) employee.push(a);
      const b = slice('above_uel', ni.uelP, null, upper, upperPpm, eP);
      if (b) employee.push(b);
      margin = eP < ni.ptP ? 0 : eP < ni.uelP ? mainPpm : upperPpm;
    }
    const noEmployer = cat !== undefined && cat.employer.rate === null;
    if (!noEmployer) {
      if (ustP !== null && ustP > ni.stP) {
        const z = slice('secondary_threshold_to_ust', ni.stP, ustP, 0, 0, eP);
        if (z) employer.push(z);
        const c = slice('above_ust', ustP, null, er, erPpm, eP);
        if (c) employer.push(c);
      } else {
        const c = slice('above_secondary_threshold', ni.stP, null, er, erPpm, eP);
        if (c) employer.push(c);
      }
    }
  }
  let employeeP = 0;
  for (const s of employee) employeeP += s.amountP;
  let employerP = 0;
  for (const s of employer) employerP += s.amountP;
  return { employeeP, employerP, employee, employer, employeeMarginPpm: margin };
}

// ---------------------------------------------------------------- Class 2 and Class 4

export type Class2Status = 'payable' | 'credited' | 'below_threshold';

export interface SelfEmployedResult {
  class2: { status: Class2Status; amountP: number; voluntaryP: number; weeks: number };
  class4: NiSlice[];
  class4P: number;
}

/** Weeks of Class 2 in a year's calculation (52; the rare 53-week year is ignored). */
const CLASS2_WEEKS = 52;

export function selfEmployed(ni: NiParams, profitP: number): SelfEmployedResult {
  const c2 = ni.class2;
  const annualP = c2.weeklyP * CLASS2_WEEKS;
  let status: Class2Status;
  let amountP = 0;
  if (profitP < c2.thresholdP) status = 'below_threshold';
  else if (!c2.compulsory) status = 'credited'; // from 2024-25: no charge, a credit at or above the SPT
  else if (c2.creditedBelowLpl && profitP < ni.class4.lplP) status = 'credited'; // 2022-23, 2023-24: SPT..LPL treated as paid
  else {
    status = 'payable';
    amountP = annualP;
  }
  const c4 = ni.class4;
  const class4: NiSlice[] = [];
  const a = slice('lower_to_upper_profits_limit', c4.lplP, c4.uplP, c4.main, c4.mainPpm, profitP);
  if (a) class4.push(a);
  const b = slice('above_upper_profits_limit', c4.uplP, null, c4.upper, c4.upperPpm, profitP);
  if (b) class4.push(b);
  let class4P = 0;
  for (const s of class4) class4P += s.amountP;
  return { class2: { status, amountP, voluntaryP: status === 'payable' ? 0 : annualP, weeks: CLASS2_WEEKS }, class4, class4P };
}

// ---------------------------------------------------------------- student loans

export interface LoanRepayment {
  plan_type: string;
  threshold: number;
  rate: number;
  amountP: number;
  ppm: number;
}

/**
 * Repayments for one or more plans. Undergraduate plans (1, 2, 4, 5) are not added up: with more than one, 9% is
 * due on income above the LOWEST of their thresholds, shown against that plan (others 0). The postgraduate loan
 * (6%) is repaid on top (gov.uk "Repaying your student loan: what you pay").
 */
export function studentLoans(y: YearParams, incomeP: number, plans: readonly string[]): LoanRepayment[] {
  const rows: Array<{ r: LoanRepayment; p: NonNullable<YearParams['studentLoans']>[number] }> = [];
  let lowest: (typeof rows)[number] | undefined;
  const seen = new Set<string>();
  // Whole pounds, rounded down (CSLM13013): the exact pence first, then down to the pound.
  const due = (p: (typeof rows)[number]['p']) => (incomeP > p.thresholdP ? roundToPounds(mulRate(incomeP - p.thresholdP, p.ppm, 'down'), 'down') : 0);
  for (const plan of plans) {
    if (seen.has(plan)) continue;
    seen.add(plan);
    const p = y.studentLoans!.find((x) => x.plan_type === plan)!;
    const row = { r: { plan_type: plan, threshold: p.threshold, rate: p.rate, amountP: 0, ppm: 0 }, p };
    if (plan === 'postgraduate') {
      row.r.amountP = due(p);
      row.r.ppm = incomeP >= p.thresholdP ? p.ppm : 0;
    } else if (!lowest || p.thresholdP < lowest.p.thresholdP) {
      lowest = row;
    }
    rows.push(row);
  }
  if (lowest) {
    lowest.r.amountP = due(lowest.p);
    lowest.r.ppm = incomeP >= lowest.p.thresholdP ? lowest.p.ppm : 0;
  }
  return rows.map((x) => x.r);
}

// ---------------------------------------------------------------- take-home

export type PensionType = 'salary_sacrifice' | 'net_pay' | 'relief_at_source';

export interface TakeHomeInput {
  grossP: number;
  region: Region;
  maRecipient?: boolean;
  maTransferor?: boolean;
  bpa?: boolean;
  plans?: readonly string[];
  /** Employee pension contribution as a fraction in ppm (5% = 50,000). */
  pensionPpm?: number;
  pensionType?: PensionType;
}

export interface TakeHomeResult {
  it: IncomeTaxResult;
  ni: Class1Result;
  loans: LoanRepayment[];
  loansP: number;
  pension: { type: PensionType; contributionP: number; reliefP: number; deductedP: number } | null;
  totalDeductionsP: number;
  netP: number;
  marginalPpm: number;
}

/** The default pension type when a contribution is given without one (docs/tax-personal.md). */
const DEFAULT_PENSION_TYPE: PensionType = 'net_pay';

export function takeHomeCore(y: YearParams, inp: TakeHomeInput): TakeHomeResult {
  const grossP = inp.grossP;
  const pPpm = inp.pensionPpm ?? 0;
  const type = inp.pensionType ?? DEFAULT_PENSION_TYPE;
  const contributionP = pPpm > 0 ? mulRate(grossP, pPpm, 'half-up') : 0;
  let taxGrossP = grossP;
  let niP = grossP;
  let rasP = 0;
  let reliefP = 0;
  let deductedP = contributionP;
  if (contributionP > 0) {
    if (type === 'salary_sacrifice') {
      taxGrossP -= contributionP;
      niP -= contributionP;
    } else if (type === 'net_pay') {
      taxGrossP -= contributionP;
    } else {
      rasP = contributionP;
      reliefP = mulRate(contributionP, y.it.basicPpm, 'half-up');
      deductedP = contributionP - reliefP;
    }
  }
  const it = incomeTax(y, {
    grossP: taxGrossP,
    region: inp.region,
    maRecipient: inp.maRecipient,
    maTransferor: inp.maTransferor,
    bpa: inp.bpa,
    rasP,
  });
  const ni = class1(y.ni, niP);
  const plans = inp.plans ?? [];
  const loans = plans.length ? studentLoans(y, niP, plans) : [];
  let loansP = 0;
  let loanMarginPpm = 0;
  for (const l of loans) {
    loansP += l.amountP;
    loanMarginPpm += l.ppm;
  }
  const totalDeductionsP = it.totalP + ni.employeeP + loansP + deductedP;
  // Marginal rate on the next pound of gross: income tax (x1.5 in the taper band), employee NI and student
  // loans, each scaled by how much of a pound of gross reaches its base after pension contributions.
  const keep = PPM - pPpm; // share of a pound left after a percentage contribution
  const taxShare = contributionP > 0 && type !== 'relief_at_source' ? keep : PPM;
  const aniShare = contributionP > 0 ? keep : PPM;
  const niShare = contributionP > 0 && type === 'salary_sacrifice' ? keep : PPM;
  let taxMargin = it.marginBandPpm * taxShare;
  if (it.taperActive) taxMargin += Math.round((it.marginBandPpm * y.it.taperPpm) / PPM) * aniShare;
  const marginalPpm = Math.round(taxMargin / PPM) + Math.round(((ni.employeeMarginPpm + loanMarginPpm) * niShare) / PPM);
  return {
    it,
    ni,
    loans,
    loansP,
    pension: contributionP > 0 || pPpm > 0 ? { type, contributionP, reliefP, deductedP } : null,
    totalDeductionsP,
    netP: grossP - totalDeductionsP,
    marginalPpm,
  };
}
