/**
 * Personal-tax parameters: the YAML reference data under data/tax/ (income tax rUK and Scotland, National
 * Insurance, category letters, allowances, student loans, pensions, tax years), turned ONCE per tax year into
 * flat objects of integer pence and integer parts-per-million rates so the calculators do no parsing, no
 * lookups by name and no float arithmetic on money. Calculators hold no numbers of their own: every amount and
 * rate comes from here, and every value in data/tax/*.yaml has its source beside it.
 */
import { loadData } from '../../data.js';
import { ratePpm, toPence } from '../../money.js';

// ---------------------------------------------------------------- raw YAML shapes

interface RawSourced {
  source: string[];
  note?: string;
}
export interface RawItBand {
  name: string;
  label?: string;
  rate: number;
  to_taxable: number | null;
}
interface RawItYear extends RawSourced {
  personal_allowance: number;
  taper: { threshold: number; rate: number } | null;
  bands: RawItBand[];
}
interface RawScotYear extends RawSourced {
  regime: string;
  bands: RawItBand[];
  published_gross_ranges: { name: string; from: number; to: number | null }[];
}
export interface RawNiYear extends RawSourced {
  /** HMRC's page for the year's rates and thresholds, where one exists (meta.source_url of the NI routes). */
  source_url?: string;
  structure: 'entry_charge' | 'thresholds';
  weekly: { lower_earnings_limit: number; primary_threshold: number | null; secondary_threshold: number | null; upper_earnings_limit: number };
  annual: { lower_earnings_limit: number; primary_threshold: number | null; secondary_threshold: number | null; upper_earnings_limit: number };
  employee: { entry_rate?: number; main_rate: number; upper_rate: number; married_women_reduced_rate?: number };
  employer: { rate?: number; slab_brackets_weekly?: { from: number; rate: number }[] };
  periods?: Record<string, unknown>;
  upper_secondary_thresholds_annual?: Record<string, number>;
  class_2: RawSourced & { weekly_rate: number; threshold: number; threshold_name: string; compulsory: boolean; credited_below_lower_profits_limit?: boolean };
  class_4: RawSourced & { main_rate: number; lower_profits_limit: number; upper_profits_limit: number; upper_rate: number };
}
export interface RawCategory {
  letter: string;
  description: string;
  group: string;
  employee: { rate_main: number | null; rate_upper: number | null };
  employer: { rate: number | null; reduced_rate: boolean; upper_secondary_threshold: string | null };
}
interface RawTaxYear {
  start_date: string;
  end_date: string;
  key_dates: Record<string, string | null>;
  note?: string;
}

interface IncomeTaxFile { meta: Record<string, unknown>; years: Record<string, RawItYear> }
interface ScotFile { meta: Record<string, unknown>; years: Record<string, RawScotYear> }
interface NiFile {
  meta: Record<string, unknown>;
  years: Record<string, RawNiYear>;
  employment_allowance: Record<string, RawSourced & { amount: number }>;
}
interface CategoriesFile { meta: Record<string, unknown>; years: Record<string, RawSourced & { categories: RawCategory[] }> }
interface AllowancesFile {
  marriage_allowance: { years: Record<string, RawSourced & { transferable_amount: number; tax_reduction: number }> };
  blind_persons_allowance: { years: Record<string, RawSourced & { amount: number }> };
}
interface TaxYearsFile { source: string[]; years: Record<string, RawTaxYear> }
interface StudentLoansFile { years: Record<string, RawSourced & { plans: { plan_type: string; annual_threshold: number; rate: number }[] }> }
interface PensionsFile {
  years: Record<string, RawSourced & { allowances: { allowance_type: string; amount: number; source: string[] }[]; taper_rate: number }>;
}

export const raw = {
  incomeTax: () => loadData<IncomeTaxFile>('tax/income-tax'),
  scotland: () => loadData<ScotFile>('tax/income-tax-scotland'),
  ni: () => loadData<NiFile>('tax/national-insurance'),
  categories: () => loadData<CategoriesFile>('tax/ni-categories'),
  allowances: () => loadData<AllowancesFile>('tax/allowances'),
  taxYears: () => loadData<TaxYearsFile>('tax/tax-years'),
  studentLoans: () => loadData<StudentLoansFile>('tax/student-loans'),
  pensions: () => loadData<PensionsFile>('tax/pensions'),
};

// ---------------------------------------------------------------- compiled shapes

/** Pounds (integer or at most 2 dp, from data) to integer pence. */
export const P = toPence;

export interface Band {
  name: string;
  label?: string;
  rate: number;
  ppm: number;
  /** Upper limit on taxable income in pence; Infinity for the top band. */
  limitP: number;
}

export interface IncomeTaxParams {
  paP: number;
  taperThresholdP: number | null;
  taperPpm: number;
  ruk: Band[];
  scot: Band[];
  /** Scotland has its own bands this year (from 2016-17). */
  scotOwn: boolean;
  /** Index of the last band a Marriage Allowance recipient may reach (rUK basic; Scotland intermediate). */
  maLastBandRuk: number;
  maLastBandScot: number;
  /** rUK basic rate: relief-at-source pension relief rate. */
  basicPpm: number;
  ma: { transferableP: number; reductionP: number } | null;
  bpaP: number | null;
}

export interface Category {
  letter: string;
  description: string;
  group: string;
  employee: { rate_main: number | null; rate_upper: number | null };
  employer: { rate: number | null; reduced_rate: boolean };
  eeMainPpm: number;
  eeUpperPpm: number;
  erPpm: number;
  /** Employer pays 0% from ST up to this (pence) when reduced_rate. */
  ustP: number | null;
}

export interface NiParams {
  structure: 'entry_charge' | 'thresholds';
  lelP: number;
  ptP: number; // entry charge: the LEL (earnings at which the employee starts to pay)
  stP: number; // entry charge: the LEL
  uelP: number;
  entryPpm: number;
  mainPpm: number;
  upperPpm: number;
  main: number;
  upper: number;
  entry: number;
  erPpm: number;
  er: number;
  /** Entry-charge years: employer slab brackets on annual earnings (weekly bracket x 52), ascending. */
  slabs: { fromP: number; ppm: number; rate: number }[] | null;
  ustAnnualP: Record<string, number>;
  class2: { weeklyP: number; thresholdP: number; thresholdName: string; compulsory: boolean; creditedBelowLpl: boolean; weeklyRate: number; threshold: number };
  class4: { lplP: number; uplP: number; mainPpm: number; upperPpm: number; main: number; upper: number };
  eaP: number | null;
  categories: Map<string, Category> | null;
  /** The year's own source for meta.source_url: its `source_url` (HMRC's page for that year), else its first web source. */
  sourceUrl: string;
  raw: RawNiYear;
}

export interface YearParams {
  year: string;
  it: IncomeTaxParams;
  ni: NiParams;
  studentLoans: { plan_type: string; thresholdP: number; ppm: number; threshold: number; rate: number }[] | null;
}

function compileBands(bands: RawItBand[]): Band[] {
  return bands.map((b) => ({
    name: b.name,
    ...(b.label ? { label: b.label } : {}),
    rate: b.rate,
    ppm: ratePpm(b.rate),
    limitP: b.to_taxable === null ? Infinity : P(b.to_taxable),
  }));
}

/** The band before the first band charged at a rate above the basic rate: the last a MA recipient may reach. */
function maLastBand(bands: Band[]): number {
  const i = bands.findIndex((b) => b.name === 'higher_rate');
  return i <= 0 ? bands.length - 1 : i - 1;
}

function compileIt(year: string): IncomeTaxParams | null {
  const y = raw.incomeTax().years[year];
  if (!y) return null;
  const ruk = compileBands(y.bands);
  const s = raw.scotland().years[year];
  const scot = s ? compileBands(s.bands) : ruk;
  const ma = raw.allowances().marriage_allowance.years[year];
  const bpa = raw.allowances().blind_persons_allowance.years[year];
  const basic = ruk.find((b) => b.name === 'basic_rate')!;
  return {
    paP: P(y.personal_allowance),
    taperThresholdP: y.taper ? P(y.taper.threshold) : null,
    taperPpm: y.taper ? ratePpm(y.taper.rate) : 0,
    ruk,
    scot,
    scotOwn: !!s,
    maLastBandRuk: maLastBand(ruk),
    maLastBandScot: maLastBand(scot),
    basicPpm: basic.ppm,
    ma: ma ? { transferableP: P(ma.transferable_amount), reductionP: P(ma.tax_reduction) } : null,
    bpaP: bpa ? P(bpa.amount) : null,
  };
}

function compileNi(year: string): NiParams | null {
  const file = raw.ni();
  const y = file.years[year];
  if (!y) return null;
  const entry = y.structure === 'entry_charge';
  const a = y.annual;
  const ustAnnualP: Record<string, number> = {};
  for (const [k, v] of Object.entries(y.upper_secondary_thresholds_annual ?? {})) ustAnnualP[k] = P(v);
  const ea = file.employment_allowance[year];
  const cats = raw.categories().years[year];
  let categories: Map<string, Category> | null = null;
  if (cats) {
    categories = new Map();
    for (const c of cats.categories) {
      categories.set(c.letter, {
        letter: c.letter,
        description: c.description,
        group: c.group,
        employee: c.employee,
        employer: { rate: c.employer.rate, reduced_rate: c.employer.reduced_rate },
        eeMainPpm: c.employee.rate_main === null ? 0 : ratePpm(c.employee.rate_main),
        eeUpperPpm: c.employee.rate_upper === null ? 0 : ratePpm(c.employee.rate_upper),
        erPpm: c.employer.rate === null ? 0 : ratePpm(c.employer.rate),
        ustP: c.employer.upper_secondary_threshold ? (ustAnnualP[c.employer.upper_secondary_threshold] ?? null) : null,
      });
    }
  }
  const lelP = P(a.lower_earnings_limit);
  return {
    structure: y.structure,
    lelP,
    ptP: entry ? lelP : P(a.primary_threshold!),
    stP: entry ? lelP : P(a.secondary_threshold!),
    uelP: P(a.upper_earnings_limit),
    entryPpm: entry ? ratePpm(y.employee.entry_rate!) : 0,
    entry: entry ? y.employee.entry_rate! : 0,
    mainPpm: ratePpm(y.employee.main_rate),
    upperPpm: ratePpm(y.employee.upper_rate),
    main: y.employee.main_rate,
    upper: y.employee.upper_rate,
    erPpm: entry ? 0 : ratePpm(y.employer.rate!),
    er: entry ? 0 : y.employer.rate!,
    // Annual bracket edges: weekly edge x 52, the same basis as the annual LEL/UEL (annual earnings period).
    slabs: entry
      ? y.employer.slab_brackets_weekly!.map((b) => ({ fromP: P(b.from) * 52, ppm: ratePpm(b.rate), rate: b.rate }))
      : null,
    ustAnnualP,
    class2: {
      weeklyP: P(y.class_2.weekly_rate),
      thresholdP: P(y.class_2.threshold),
      thresholdName: y.class_2.threshold_name,
      compulsory: y.class_2.compulsory,
      creditedBelowLpl: y.class_2.credited_below_lower_profits_limit === true,
      weeklyRate: y.class_2.weekly_rate,
      threshold: y.class_2.threshold,
    },
    class4: {
      lplP: P(y.class_4.lower_profits_limit),
      uplP: P(y.class_4.upper_profits_limit),
      mainPpm: ratePpm(y.class_4.main_rate),
      upperPpm: ratePpm(y.class_4.upper_rate),
      main: y.class_4.main_rate,
      upper: y.class_4.upper_rate,
    },
    eaP: ea ? P(ea.amount) : null,
    categories,
    sourceUrl: y.source_url ?? y.source.find((u) => /^https?:/.test(u)) ?? y.source[0]!,
    raw: y,
  };
}

const cache = new Map<string, YearParams>();

/** Compiled parameters of one tax year (cached), or undefined when income tax or NI data lack the year. */
export function yearParams(year: string): YearParams | undefined {
  let p = cache.get(year);
  if (p) return p;
  const it = compileIt(year);
  const ni = compileNi(year);
  if (!it || !ni) return undefined;
  const sl = raw.studentLoans().years[year];
  p = {
    year,
    it,
    ni,
    studentLoans: sl
      ? sl.plans.map((x) => ({ plan_type: x.plan_type, thresholdP: P(x.annual_threshold), ppm: ratePpm(x.rate), threshold: x.annual_threshold, rate: x.rate }))
      : null,
  };
  cache.set(year, p);
  return p;
}

/** Years with both income tax and NI data (the calculators' coverage). */
export function coveredYears(): string[] {
  const it = raw.incomeTax().years;
  const ni = raw.ni().years;
  return Object.keys(it).filter((y) => y in ni).sort();
}

let coveredSet: Set<string> | undefined;
export function coveredYearSet(): Set<string> {
  return (coveredSet ??= new Set(coveredYears()));
}
