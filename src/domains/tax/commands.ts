/** `publicdata tax ...`: one command per /v1/tax route. */
import { Command, Option } from 'commander';
import { ApiError } from '../../contract/errors.js';
import type { RouteCall } from '../../contract/types.js';
import { meta } from '../../contract/envelope.js';
import { PENSION_TYPES, STUDENT_LOAN_PLANS, CGT_ASSET_TYPES } from './routes.js';
import { withoutThousands } from '../../money.js';
import type { CommandKit, CommandRun, FlagSpec, RouteCommandSpec } from '../command-kit.js';
import { parseAmount } from '../../amount.js';
import { vatReturnCommand } from './vat-return/command.js';

const year: FlagSpec = { flags: '-y, --year <tax_year>', param: 'tax_year', description: 'tax year YYYY-YY (default: the current year)' };
const region: FlagSpec = {
  flags: '-r, --region <region>', param: 'region',
  description: 'england_wales_ni (default) or scotland; or a UK country or English region by name or GSS code ("North West", S92000003)',
};

/** Reference-data routes with an optional `/{tax_year}` form: `tax bands [tax_year]`. */
function byYear(name: string, route: string, examples: string[], aliases?: string[]): RouteCommandSpec {
  return {
    name,
    ...(aliases ? { aliases } : {}),
    route,
    withArg: { param: 'tax_year', route: `${route}.year` },
    args: [{ param: 'tax_year', optional: true, description: 'tax year YYYY-YY (default: current)' }],
    examples,
  };
}

export function parseSweep(s: string): { from: number; to: number; step: number } {
  const parts = s.split(':').map((p) => withoutThousands(p.trim()));
  const m = parts.length === 3 && parts.every((p) => p !== undefined) ? /^(\d+):(\d+):(\d+)$/.exec(parts.join(':')) : null;
  if (!m) throw new ApiError(400, 'usage_error', `--sweep takes FROM:TO:STEP in pounds, e.g. 20000:150000:5000 (got '${s}').`);
  const [from, to, step] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (step <= 0 || to < from) throw new ApiError(400, 'usage_error', '--sweep needs STEP > 0 and TO >= FROM.');
  if ((to - from) / step > 10_000) throw new ApiError(400, 'usage_error', '--sweep makes at most 10,000 rows.');
  return { from, to, step };
}

/**
 * `tax take-home --sweep`: one take-home per income, a table (or chart on a TTY). Every row goes through
 * `execute`, so --source and --max-credits apply as to any call; the first row is validated before
 * anything runs, and a failing row stops the sweep with its error.
 */
async function sweep(call: RouteCall, opts: Record<string, unknown>, run: CommandRun): Promise<number> {
  const { from, to, step } = parseSweep(String(opts.sweep));
  // --max-credits is checked for the whole sweep before the first row is sent (a budget that covers only
  // some rows would spend credits and print nothing).
  const over = await run.budget({ ...call, body: { ...(call.body as object), gross_income: from } }, Math.floor((to - from) / step) + 1);
  if (over) return run.fail(over);
  const rows: unknown[] = [];
  for (let gross = from; gross <= to; gross += step) {
    const r = await run.execute({ ...call, body: { ...(call.body as object), gross_income: gross } });
    if ('error' in r.envelope) {
      const e = r.envelope.error;
      return run.fail(new ApiError(r.status, e.code, e.message));
    }
    rows.push(r.envelope.data);
  }
  await run.output({ data: rows, meta: meta({ source: 'HM Revenue & Customs' }) }, 'tax.take-home.sweep');
  return 0;
}

/** One area to rank against: a GSS code, name or slug the earnings route takes (none: the UK), and how the note names it. */
interface RankArea {
  geography?: string;
  what: string;
}

const PSEUDO = /^[A-Z]99999999$/; // ONSPD's "none" codes (a Scottish postcode has no English region)
type AreaRef = { code?: string; name?: string | null } | null | undefined;

/**
 * `--postcode`: the postcode's local authority, region and country, most local first (GET
 * /v1/postcodes/{postcode} through `execute`: the postcodes domain is never imported; a directory not
 * synced is that route's dataset_not_synced naming `publicdata sync postcodes`), and its country's GSS
 * code, which the take-home's region vocabulary reads as the tax region (S92000003: scotland).
 */
async function postcodeAreas(postcode: string, run: CommandRun): Promise<{ areas: RankArea[]; country?: string } | ApiError> {
  const r = await run.execute({ method: 'GET', path: `/v1/postcodes/${encodeURIComponent(postcode.trim())}`, query: {} });
  if ('error' in r.envelope) return new ApiError(r.status, r.envelope.error.code, `--postcode: ${r.envelope.error.message}`);
  const d = r.envelope.data as { postcode?: string; local_authority?: AreaRef; region?: AreaRef; country?: AreaRef };
  const pc = d.postcode ?? postcode.trim().toUpperCase();
  const areas: RankArea[] = [];
  for (const [key, label] of [['local_authority', 'local authority'], ['region', 'region'], ['country', 'country']] as const) {
    const a = d[key];
    if (a?.code && !PSEUDO.test(a.code)) areas.push({ geography: a.code, what: `${a.name ?? a.code} (the ${label} of ${pc})` });
  }
  return { areas, ...(d.country?.code ? { country: d.country.code } : {}) };
}

interface Percentile {
  percentile: number | null;
  percentile_bound: string | null;
  reference: { year: number; median: number | null; geography?: { code: string; name: string } };
}

/**
 * Rank `amount` against each area in turn until the earnings route answers: an area ASHE has no record
 * for (404) or that names no single area of ASHE (400: `--region rUK`) passes to the next, and is said in
 * the note. The last resort of `--region` is the UK, as without it.
 */
async function rankAgainst(amount: unknown, areas: RankArea[], run: CommandRun): Promise<{ rank: unknown; note: string }> {
  const skipped: string[] = [];
  let last = '';
  for (const area of areas) {
    const e = await run.execute({
      method: 'POST', path: '/v1/earnings/percentile', query: {},
      body: { amount, measure: 'annual_gross', population: 'full_time', ...(area.geography !== undefined ? { geography: area.geography } : {}) },
    });
    if ('error' in e.envelope) {
      const err = e.envelope.error;
      if (err.code === 'not_found' || (err.code === 'invalid_parameter' && area.geography !== undefined)) {
        skipped.push(err.code === 'not_found' ? `${area.what}: ${err.message}` : `${area.what}, which names no single area of ASHE`);
        last = err.message;
        continue;
      }
      return { rank: null, note: `No rank: ${err.message}` };
    }
    const p = e.envelope.data as Percentile;
    const name = p.reference.geography?.name ?? 'United Kingdom';
    const where = area.geography === undefined ? 'the UK' : area.what.startsWith(name) ? area.what : `${name} (${area.what})`;
    const passed = skipped.length ? ` Not ranked against ${skipped.join('; ')}.` : '';
    return {
      rank: { percentile: p.percentile, percentile_bound: p.percentile_bound, year: p.reference.year, area: name, median: p.reference.median },
      note: `Gross pay ranked among full-time employee jobs in ${where} (ONS ASHE annual gross pay); net pay is not ranked, ASHE publishes gross pay only.${passed}`,
    };
  }
  return { rank: null, note: `No rank: ${skipped.length ? skipped.join('; ') : last}` };
}

/**
 * `tax take-home --rank`: the take-home answer plus `rank`, where the gross sits among full-time employee
 * jobs' annual gross pay, from POST /v1/earnings/percentile called through `execute` (the earnings
 * domain is never imported; --source applies). Net pay is not ranked: ASHE publishes gross pay only. When
 * the earnings data cannot answer (not synced, no API key), `rank` is null and `rank_note` says why.
 *
 * The area (issue 37): the UK by default; `--region` as typed (the earnings route takes a country or English
 * region by name, slug or GSS code; `england_wales_ni`, no single area of ASHE, ranks against the UK);
 * `--postcode` its local authority, else its region, else its country, and the tax region of its country
 * unless `--region` is given.
 */
async function withRank(call: RouteCall, opts: Record<string, unknown>, run: CommandRun): Promise<number> {
  const body = { ...(call.body as Record<string, unknown>) };
  let areas: RankArea[] = [];
  if (opts.postcode !== undefined) {
    const place = await postcodeAreas(String(opts.postcode), run);
    if (place instanceof ApiError) return run.fail(place);
    areas = place.areas;
    if (body.region === undefined && place.country !== undefined) body.region = place.country;
  } else if (typeof body.region === 'string') {
    areas = [{ geography: body.region.trim(), what: `'${body.region.trim()}' (--region)` }];
  }
  const r = await run.execute({ ...call, body });
  if ('error' in r.envelope) return run.fail(new ApiError(r.status, r.envelope.error.code, r.envelope.error.message));
  const data = r.envelope.data as Record<string, unknown>;
  const { rank, note } = await rankAgainst(data.gross_income, opts.postcode === undefined ? [...areas, { what: 'the UK' }] : areas, run);
  await run.output({ ...r.envelope, data: { ...data, rank, rank_note: note } }, 'tax.take-home.calculate');
  return 0;
}

function scenarioFromFlags(opts: Record<string, unknown>, p: 'a' | 'b', gross: unknown): Record<string, unknown> {
  const P = p.toUpperCase();
  const s: Record<string, unknown> = {};
  if (gross !== undefined) s.gross_income = typeof gross === 'string' ? parseAmount(gross, `scenario ${P} gross income`) : gross;
  const get = (k: string) => opts[`${p}${k}`] ?? opts[`${P}${k}`];
  if (get('Region') !== undefined) s.region = get('Region');
  if (get('StudentLoan') !== undefined) s.student_loan_plans = String(get('StudentLoan')).split(',');
  if (get('Pension') !== undefined) s.pension_contribution_percent = parseAmount(String(get('Pension')), `--${p}-pension`);
  if (get('PensionType') !== undefined) s.pension_type = get('PensionType');
  return s;
}

export const taxCommands: RouteCommandSpec[] = [
  {
    name: 'take-home',
    route: 'tax.take-home.calculate',
    description: 'Take-home pay: income tax, NI, student loan, pension; net annual, monthly, weekly',
    args: [{ param: 'gross_income', optional: true, description: 'annual gross pay in pounds (45000, 45,000, 45k)' }],
    flags: [
      region,
      year,
      { flags: '--student-loan <plans>', param: 'student_loan_plans', description: `comma-separated: ${STUDENT_LOAN_PLANS.join(', ')}` },
      { flags: '--pension <percent>', param: 'pension_contribution_percent', description: 'employee pension contribution, % of gross' },
      { flags: '--pension-type <type>', param: 'pension_type', description: PENSION_TYPES.join(', '), choices: PENSION_TYPES },
    ],
    extraOptions: [
      new Option('--sweep <from:to:step>', 'one row per gross income, e.g. 20000:150000:5000 (one call per row)'),
      new Option('--chart', 'with --sweep on a terminal: chart net pay and marginal rate against gross'),
      new Option('--rank', 'add where the gross sits among full-time annual gross pay (ONS ASHE, via /v1/earnings/percentile): in the UK, the --region given, or --postcode\'s area'),
      new Option('--postcode <postcode>', "with --rank: rank against the postcode's local authority (else its region, else its country; after 'publicdata sync postcodes'); the tax region follows its country unless --region is given"),
    ],
    batch: true,
    bodyFile: true,
    examples: [
      'publicdata tax take-home 45000',
      'publicdata tax take-home 60000 --region scotland --year 2025-26 --student-loan plan_2',
      'publicdata tax take-home 80000 --pension 5 --pension-type salary_sacrifice --rank --postcode "LS8 3BS"',
      'publicdata tax take-home --sweep 20000:150000:5000 --chart',
    ],
    prepare: async (call, opts, run) => {
      if (opts.sweep === undefined) {
        if (opts.chart) throw new ApiError(400, 'usage_error', '--chart goes with --sweep (tax take-home --sweep FROM:TO:STEP --chart).');
        if (opts.postcode !== undefined && !opts.rank) throw new ApiError(400, 'usage_error', '--postcode goes with --rank (the area the gross is ranked against).');
        return opts.rank ? withRank(call, opts, run) : call;
      }
      if (opts.rank || opts.postcode !== undefined) throw new ApiError(400, 'usage_error', '--rank (and --postcode) go with one gross income, not with --sweep.');
      // --sweep sets gross_income itself: a gross income given as well would be silently dropped.
      if ((call.body as Record<string, unknown> | undefined)?.gross_income !== undefined) {
        throw new ApiError(400, 'usage_error', '--sweep sets the gross income of each row: give either GROSS_INCOME or --sweep FROM:TO:STEP, not both.');
      }
      return sweep(call, opts, run);
    },
  },
  {
    name: 'income-tax',
    route: 'tax.income.calculate',
    args: [{ param: 'gross_income', optional: true, description: 'annual gross income in pounds' }],
    flags: [region, year],
    batch: true,
    examples: [
      'publicdata tax income-tax 60000 --region scotland',
      'publicdata tax income-tax 30000 --marriage-allowance-recipient',
      'publicdata tax income-tax 110000 --year 2019-20 --format json',
    ],
  },
  {
    name: 'ni',
    aliases: ['national-insurance'],
    route: 'tax.ni.calculate',
    description: 'National Insurance: employed (standard or director) or self-employed (Class 2 and 4)',
    args: [{ param: 'annual_salary', optional: true, description: 'annual salary (or profit with --self-employed), pounds' }],
    flags: [year, { flags: '--self-employed', param: 'type', value: 'self_employed', description: 'Class 2 and Class 4 on profits' }],
    batch: true,
    examples: ['publicdata tax ni 50000', 'publicdata tax ni 50000 --director', 'publicdata tax ni 40000 --self-employed --year 2024-25'],
    prepare: (call) => {
      const b = call.body as Record<string, unknown>;
      if (b.type === 'self_employed' && b.annual_salary !== undefined && b.annual_profit === undefined) {
        b.annual_profit = b.annual_salary;
        delete b.annual_salary;
      }
      return call;
    },
  },
  byYear('ni-thresholds', 'tax.ni.thresholds', ['publicdata tax ni-thresholds', 'publicdata tax ni-thresholds 1998-99']),
  byYear('ni-categories', 'tax.ni.categories', ['publicdata tax ni-categories', 'publicdata tax ni-categories --format csv']),
  {
    name: 'employer-cost',
    route: 'tax.employer-cost.calculate',
    args: [{ param: 'annual_salary', optional: true, description: 'annual salary, pounds' }],
    flags: [year, { flags: '--employees <n>', param: 'num_employees', description: 'number of employees (default 1)' }],
    batch: true,
    examples: ['publicdata tax employer-cost 35000', 'publicdata tax employer-cost 28000 --employees 4 --employment-allowance', 'publicdata tax employer-cost 50000 --pension-rate 0.05'],
  },
  {
    name: 'compare',
    route: 'tax.compare',
    description: 'Compare two take-home scenarios (A and B)',
    args: [
      { param: 'gross_a', optional: true, description: 'scenario A gross income' },
      { param: 'gross_b', optional: true, description: 'scenario B gross income' },
    ],
    flags: [year],
    extraOptions: [
      new Option('--a-region <region>', 'scenario A region'),
      new Option('--b-region <region>', 'scenario B region'),
      new Option('--a-student-loan <plans>', 'scenario A student loan plans'),
      new Option('--b-student-loan <plans>', 'scenario B student loan plans'),
      new Option('--a-pension <percent>', 'scenario A pension contribution %'),
      new Option('--b-pension <percent>', 'scenario B pension contribution %'),
      new Option('--a-pension-type <type>', `scenario A pension type: ${PENSION_TYPES.join(', ')}`),
      new Option('--b-pension-type <type>', `scenario B pension type: ${PENSION_TYPES.join(', ')}`),
    ],
    bodyFile: true,
    batch: true,
    examples: [
      'publicdata tax compare 45000 52000 --b-region scotland',
      'publicdata tax compare 60000 60000 --b-pension 10 --b-pension-type salary_sacrifice',
      'publicdata tax compare --body scenarios.json',
    ],
    prepare: (call, opts) => {
      const b = call.body as Record<string, unknown>;
      const ga = b.gross_a;
      const gb = b.gross_b;
      delete b.gross_a;
      delete b.gross_b;
      const a = scenarioFromFlags(opts, 'a', ga);
      const bb = scenarioFromFlags(opts, 'b', gb);
      if (Object.keys(a).length) b.scenario_a = { ...((b.scenario_a as object) ?? {}), ...a };
      if (Object.keys(bb).length) b.scenario_b = { ...((b.scenario_b as object) ?? {}), ...bb };
      return call;
    },
  },
  {
    name: 'vat',
    route: 'tax.vat.calculate',
    description: 'Add VAT to a net amount, or extract it from a gross amount with --inclusive',
    args: [{ param: 'amount', optional: true, description: 'amount in pounds' }],
    flags: [
      { flags: '--inclusive', param: 'direction', value: 'inclusive', description: 'the amount includes VAT: extract it' },
      { flags: '--rate <rate>', param: 'rate', description: 'standard (default), reduced or zero', choices: ['standard', 'reduced', 'zero'] },
      year,
    ],
    batch: true,
    examples: ['publicdata tax vat 100', 'publicdata tax vat 120 --inclusive', 'publicdata tax vat 50 --rate reduced'],
  },
  byYear('vat-rates', 'tax.vat.rates', ['publicdata tax vat-rates', 'publicdata tax vat-rates 2021-22']),
  {
    name: 'flat-rate',
    aliases: ['flat-rate-percentages'],
    route: 'tax.vat.flat-rate-percentages',
    examples: ['publicdata tax flat-rate', 'publicdata tax flat-rate --format csv > frs.csv'],
  },
  {
    name: 'cgt',
    aliases: ['capital-gains'],
    route: 'tax.cgt.calculate',
    args: [{ param: 'gain', optional: true, description: 'gain in pounds' }],
    flags: [
      { flags: '--asset <type>', param: 'asset_type', description: CGT_ASSET_TYPES.join(', '), choices: CGT_ASSET_TYPES },
      { flags: '--band <band>', param: 'taxpayer_band', description: 'basic or higher', choices: ['basic', 'higher'] },
      year,
    ],
    batch: true,
    examples: ['publicdata tax cgt 30000 --asset residential_property --band higher', 'publicdata tax cgt 50000 --asset other_assets --band basic --year 2024-25 --disposal-date 2024-11-01'],
  },
  byYear('cgt-rates', 'tax.cgt.rates', ['publicdata tax cgt-rates', 'publicdata tax cgt-rates 2024-25']),
  byYear('cgt-allowances', 'tax.cgt.allowances', ['publicdata tax cgt-allowances', 'publicdata tax cgt-allowances 2022-23']),
  {
    name: 'dividends',
    route: 'tax.dividends.calculate',
    args: [{ param: 'dividend_income', optional: true, description: 'dividend income in pounds' }],
    flags: [{ flags: '--band <band>', param: 'taxpayer_band', description: 'basic, higher or additional', choices: ['basic', 'higher', 'additional'] }, year],
    batch: true,
    examples: ['publicdata tax dividends 10000 --band higher', 'publicdata tax dividends 2000 --band basic --year 2025-26'],
  },
  byYear('dividend-rates', 'tax.dividends.rates', ['publicdata tax dividend-rates', 'publicdata tax dividend-rates 2022-23']),
  {
    name: 'student-loan',
    route: 'tax.student-loan.calculate',
    args: [{ param: 'annual_income', optional: true, description: 'annual income in pounds' }],
    flags: [{ flags: '--plan <plans>', param: 'plan_types', description: `comma-separated: ${STUDENT_LOAN_PLANS.join(', ')}` }, year],
    batch: true,
    examples: ['publicdata tax student-loan 40000 --plan plan_2', 'publicdata tax student-loan 55000 --plan plan_2,postgraduate'],
  },
  byYear('student-loan-thresholds', 'tax.student-loan.thresholds', ['publicdata tax student-loan-thresholds', 'publicdata tax student-loan-thresholds 2025-26']),
  byYear('pension-allowances', 'tax.pension.allowances', ['publicdata tax pension-allowances', 'publicdata tax pension-allowances 2025-26']),
  {
    name: 'corporation',
    aliases: ['corporation-tax'],
    route: 'tax.corporation.calculate',
    args: [{ param: 'profit', optional: true, description: 'taxable profit in pounds' }],
    flags: [year, { flags: '--associated <n>', param: 'associated_companies', description: 'associated companies (the limits are divided)' }],
    batch: true,
    examples: ['publicdata tax corporation 150000', 'publicdata tax corporation 60000 --associated 1 --year 2024-25'],
  },
  byYear('corporation-rates', 'tax.corporation.rates', ['publicdata tax corporation-rates', 'publicdata tax corporation-rates 2022-23']),
  byYear('bands', 'tax.income.bands', ['publicdata tax bands', 'publicdata tax bands 2019-20', 'publicdata tax bands --format json'], ['income-bands']),
  {
    name: 'years',
    route: 'tax.years.list',
    withArg: { param: 'identifier', route: 'tax.years.get' },
    args: [{ param: 'identifier', optional: true, description: "tax year YYYY-YY, or 'current'" }],
    examples: ['publicdata tax years', 'publicdata tax years current', 'publicdata tax years 2024-25', 'publicdata tax years --all --format csv'],
  },
];

export function register(program: Command, kit: CommandKit, only?: string): void {
  const tax = program
    .command('tax')
    .summary('tax years, income tax, NI, take-home, VAT, CGT, dividends, student loans, pensions, corporation tax')
    .description(
      kit.help('UK tax calculators and reference data (/v1/tax). All run offline from the shipped data.', [
        'publicdata tax take-home 45000',
        'publicdata tax income-tax 60000 --region scotland',
        'publicdata tax vat-return --body return.json',
      ]),
    );
  const all = [...taxCommands, vatReturnCommand];
  const picked = only ? all.filter((s) => s.name === only || s.aliases?.includes(only)) : [];
  for (const spec of picked.length ? picked : all) kit.route(tax, spec);
}
