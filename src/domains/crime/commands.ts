/** `publicdata crime ...`: street-level crimes, outcomes, statistics, categories, forces (mirror or live). */
import { Command, Option } from 'commander';
import { ApiError } from '../../contract/errors.js';
import type { RouteCall } from '../../contract/types.js';
import type { CommandKit, CommandRun } from '../command-kit.js';


/**
 * The most months `crime street|stats --months` takes: the same as `sync --months` (commands/sync.ts),
 * since the mirror keeps every month a sync loaded and a query may ask for all of them.
 */
export const CRIME_MAX_MONTHS = 240;

/** The month `n - 1` months before `month` (YYYY-MM), so that `n` months end at `month`. */
export function monthsBack(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const idx = y * 12 + (m - 1) - (n - 1);
  return `${Math.floor(idx / 12)}-${String((idx % 12) + 1).padStart(2, '0')}`;
}

/** `--months N` (the newest N months loaded, or published when live: read from /v1/crime/forces). `--near`: the kit's. */
async function prepareArea(call: RouteCall, opts: Record<string, unknown>, run: CommandRun): Promise<RouteCall | number> {
  const query = { ...call.query };
  if (opts.months !== undefined) {
    const n = Number(opts.months);
    if (!Number.isInteger(n) || n < 1 || n > CRIME_MAX_MONTHS) {
      throw new ApiError(400, 'usage_error', `--months: a whole number of months from 1 to ${CRIME_MAX_MONTHS}, got '${String(opts.months)}'.`);
    }
    if (query.month !== undefined || query.month_from !== undefined || query.month_to !== undefined) {
      throw new ApiError(400, 'usage_error', '--months: give --months or --month/--from/--to, not both.');
    }
    const r = await run.execute({ method: 'GET', path: '/v1/crime/forces', query: {} });
    if (r.status !== 200 || !('data' in r.envelope)) {
      return 'error' in r.envelope ? run.fail(new ApiError(r.status, r.envelope.error.code, r.envelope.error.message)) : 1;
    }
    const newest = (r.envelope.data as Array<{ months?: { to?: string | null } }>).map((f) => f.months?.to ?? '').sort().pop();
    if (!newest) return run.fail(new ApiError(404, 'not_found', 'No months of street-level crime are available.'));
    query.month_from = monthsBack(newest, n);
    query.month_to = newest;
  }
  return { ...call, query };
}

const areaOptions = () => [new Option('--months <n>', 'the newest N months (instead of --month or --from/--to)')];
const NEAR = 'the area: crimes within --radius-km of this point';
const monthFlags = [
  { flags: '--from <YYYY-MM>', param: 'month_from', description: 'first month, inclusive' },
  { flags: '--to <YYYY-MM>', param: 'month_to', description: 'last month, inclusive' },
];

export function register(program: Command, kit: CommandKit): void {
  const c = program
    .command('crime')
    .summary('data.police.uk: street-level crimes, outcomes, statistics')
    .description(kit.help('Street-level crime (/v1/crime). Answers offline after `publicdata sync crime` (the newest 12 months\nof every force); otherwise the live API answers (needs a key). Locations are anonymised snap points.', [
      'publicdata crime stats --near 53.80,-1.55 --months 12',
      'publicdata crime street --lsoa E01000916 --month 2025-05',
    ]));
  kit.route(c, {
    name: 'street',
    route: 'crime.street',
    flags: monthFlags,
    near: NEAR,
    extraOptions: areaOptions(),
    prepare: prepareArea,
    examples: [
      'publicdata crime street --near 51.5155,-0.0922 --radius-km 1',
      'publicdata crime street --lsoa E01000916 --from 2025-01 --to 2025-05 --category burglary,robbery',
      'publicdata crime street --force city-of-london --month 2025-05 --all --format csv',
    ],
  });
  kit.route(c, {
    name: 'outcomes',
    route: 'crime.outcomes',
    args: [{ param: 'crime_id', description: 'the 64-character Crime ID' }],
    examples: ['publicdata crime outcomes 5dcf36aec35688cb126aabd863e5eb6bddbfef1dee38bc4827a7923e315a56dc'],
  });
  kit.route(c, {
    name: 'stats',
    aliases: ['statistics'],
    route: 'crime.statistics',
    flags: monthFlags,
    near: NEAR,
    extraOptions: [...areaOptions(), new Option('--chart', 'on a terminal: chart the counts by month')],
    prepare: prepareArea,
    examples: [
      'publicdata crime stats --near 53.80,-1.55 --months 12',
      'publicdata crime stats --lsoa E01000916 --months 12 --chart',
      'publicdata crime stats --force surrey --month 2025-05 --format json',
    ],
  });
  kit.route(c, { name: 'categories', route: 'crime.categories', examples: ['publicdata crime categories'] });
  kit.route(c, { name: 'forces', route: 'crime.forces', examples: ['publicdata crime forces'] });
}
