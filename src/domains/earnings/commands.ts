/**
 * `publicdata earnings ...`: earnings by region, industry and occupation (ONS ASHE), and `earnings rank
 * AMOUNT`, where an amount of pay sits among the published percentiles (POST /v1/earnings/percentile).
 * `--region` and `--occupation` take a code or a name: a name is looked up through the regions or
 * occupations route (run.execute, so --source applies to it too) and must match one record.
 */
import { Command, Option } from 'commander';
import { ApiError } from '../../contract/errors.js';
import { isErrorEnvelope, type CallResult, type RouteCall } from '../../contract/types.js';
import type { CommandKit, CommandRun } from '../command-kit.js';
import { percentileGeography } from './regions.js';

const usage = (m: string) => new ApiError(400, 'usage_error', m);

interface Named {
  geography?: { code: string; name: string };
  occupation?: { code: string; name: string };
}

const NOUN = { geography: ['area', 'areas'], occupation: ['occupation', 'occupations'] } as const;

/**
 * The one code a name stands for: an exact name (case-insensitive) wins, else a single substring match;
 * undefined when nothing matches. An ambiguous name is a usage error counting every match (the answer's
 * pagination total, not the page of rows fetched) and naming the first few.
 */
async function resolveName(run: CommandRun, kind: 'geography' | 'occupation', name: string, query: Record<string, string>): Promise<string | number | undefined> {
  const path = kind === 'geography' ? '/v1/earnings/regions' : '/v1/earnings/occupations';
  const r: CallResult = await run.execute({ method: 'GET', path, query: { ...query, [kind]: name, per_page: '100' } });
  if (isErrorEnvelope(r.envelope)) return run.fail(new ApiError(r.status, r.envelope.error.code, r.envelope.error.message));
  const rows = (r.envelope.data as Named[]).map((d) => d[kind]!).filter(Boolean);
  const exact = rows.filter((x) => x.name.toLowerCase() === name.trim().toLowerCase());
  const unique = [...new Map((exact.length ? exact : rows).map((x) => [x.code, x])).values()];
  const count = exact.length ? unique.length : Math.max(unique.length, r.envelope.pagination?.total ?? 0);
  if (count === 0) return undefined;
  if (count === 1) return unique[0]!.code;
  const listed = unique.slice(0, 6).map((x) => `${x.name} (${x.code})`).join(', ');
  throw usage(`'${name}' matches ${count} ${NOUN[kind][1]}: ${listed}${count > 6 ? ', ...' : ''}; give the code`);
}

const CODE = { geography: /^[A-Za-z]\d{8}$/, occupation: /^\d{1,4}$/ };

async function prepareRank(call: RouteCall, _opts: Record<string, unknown>, run: CommandRun): Promise<RouteCall | number> {
  const b = call.body as Record<string, unknown>;
  const scope: Record<string, string> = {};
  for (const k of ['year', 'measure', 'population'] as const) if (b[k] !== undefined) scope[k] = String(b[k]);
  for (const kind of ['geography', 'occupation'] as const) {
    const v = b[kind];
    if (typeof v === 'string' && v.trim() === '') {
      // before any lookup: an empty name would match every record
      throw new ApiError(400, 'invalid_parameter', `Invalid parameter '${kind}': empty; give a ${kind === 'geography' ? 'GSS code' : 'SOC code'} or part of a name.`);
    }
    if (typeof v !== 'string' || CODE[kind].test(v.trim()) || (kind === 'geography' && v === 'K02000001')) continue;
    const q = kind === 'geography' && typeof b.basis === 'string' ? { ...scope, basis: b.basis } : scope;
    let code = await resolveName(run, kind, v, q);
    // Names of areas: the workplace table by default, the residence table when the name matches nothing there (or only it is loaded).
    if (code === undefined && kind === 'geography' && b.basis === undefined) code = await resolveName(run, kind, v, { ...scope, basis: 'residence' });
    // named as the flag typed (relabelled by the command kit: `Invalid option --region: ...`), with the
    // nearest country or region name when one is near (a typo: "Nort West")
    if (code === undefined) {
      const resolved = kind === 'geography' ? percentileGeography(v) : undefined;
      const near = typeof resolved === 'object' && resolved.near !== undefined ? `did you mean '${resolved.near}'? ` : '';
      throw new ApiError(400, 'invalid_parameter', `Invalid parameter '${kind}': no ${NOUN[kind][0]} named like '${v}' in the data loaded; ${near}'publicdata earnings ${kind === 'geography' ? 'regions' : 'occupations'}' lists them.`);
    }
    if (typeof code === 'number') return code;
    b[kind] = code;
  }
  return call;
}

export function register(program: Command, kit: CommandKit): void {
  const g = program
    .command('earnings')
    .summary('Earnings by region, industry and occupation (ONS ASHE)')
    .description(kit.help('Earnings from the ONS Annual Survey of Hours and Earnings (/v1/earnings): medians, means and percentiles.', [
      'publicdata earnings regions "North West" --basis residence',
      'publicdata earnings rank 42000 --region "North West"',
      'publicdata earnings occupations 2134 --measure weekly_gross',
    ]));
  const common = [
    { flags: '--year <year>', param: 'year', description: 'ASHE year (default the newest loaded)' },
  ];
  kit.route(g, {
    name: 'regions',
    route: 'earnings.regions',
    description: 'Earnings by country, region and local authority (workplace or residence)',
    args: [{ param: 'geography', optional: true, description: 'GSS code or part of a name' }],
    flags: common,
    examples: ['publicdata earnings regions --level region', 'publicdata earnings regions "North West" --basis residence', 'publicdata earnings regions Leeds --population all --measure weekly_gross'],
  });
  kit.route(g, {
    name: 'industries',
    route: 'earnings.industries',
    description: 'Earnings by industry (SIC 2007 sections and divisions)',
    args: [{ param: 'industry', optional: true, description: 'section letter, division or part of a name' }],
    flags: common,
    examples: ['publicdata earnings industries --level section', 'publicdata earnings industries construction', 'publicdata earnings industries 62 --measure hourly_excluding_overtime'],
  });
  kit.route(g, {
    name: 'occupations',
    route: 'earnings.occupations',
    description: 'Earnings by occupation (SOC major to unit groups: SOC 2020 from 2021, SOC 2010 before)',
    args: [{ param: 'occupation', optional: true, description: 'SOC code or part of a name' }],
    flags: common,
    examples: ['publicdata earnings occupations --level major', 'publicdata earnings occupations nurses', 'publicdata earnings occupations 2134 --measure weekly_gross'],
  });
  kit.route(g, {
    name: 'rank',
    route: 'earnings.percentile',
    description: 'Where an amount of pay sits among the published percentiles (a table; --chart draws the distribution)',
    args: [{ param: 'amount', description: 'pay in pounds, in the unit of --measure (default a year)' }],
    flags: [
      { flags: '--region <name-or-code>', param: 'geography', description: 'area: GSS code or name (default the United Kingdom)' },
      { flags: '--occupation <name-or-code>', param: 'occupation', description: 'occupation: SOC code or name (UK)' },
      ...common,
    ],
    extraOptions: [new Option('--chart', 'on a terminal: draw the published percentiles with the amount marked')],
    prepare: prepareRank,
    examples: ['publicdata earnings rank 42000 --region "North West"', 'publicdata earnings rank 650 --measure weekly_gross --chart', 'publicdata earnings rank 38000 --occupation 2231'],
  });
}
