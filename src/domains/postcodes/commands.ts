/** `publicdata postcode LS8 3BS`, `publicdata postcode --near 53.82,-1.51`, `publicdata postcode --batch` (lookups). */
import type { Command } from 'commander';
import { ApiError } from '../../contract/errors.js';
import type { RouteCall } from '../../contract/types.js';
import type { CommandKit } from '../command-kit.js';

function prepare(call: RouteCall, opts: Record<string, unknown>): RouteCall {
  if (opts.batch) {
    // NDJSON lookup bodies on stdin, {"postcodes": [...]} per line: one envelope per line
    return { method: 'POST', path: '/v1/postcodes/lookup', query: {}, body: {} };
  }
  if (call.path === '/v1/postcodes' && call.query.lat === undefined) {
    throw new ApiError(400, 'usage_error', 'Give a postcode (publicdata postcode LS8 3BS) or --near LAT,LNG, or --batch with lookup bodies on stdin.');
  }
  if (call.path !== '/v1/postcodes' && opts.near !== undefined) throw new ApiError(400, 'usage_error', 'Give a postcode or --near, not both.');
  return call;
}

export function register(program: Command, kit: CommandKit): void {
  const group = program
    .command('postcode')
    .summary('UK postcodes (ONS Postcode Directory): one postcode, nearest postcodes, lookups')
    .description(kit.help(
      "Postcodes (/v1/postcodes, a publicdata extension): location, status and areas of every UK postcode from the ONS\n" +
        "Postcode Directory, offline after 'publicdata sync postcodes'.",
      ['publicdata postcode LS8 3BS', 'publicdata postcode --near 53.82,-1.51 --radius-km 0.3', 'publicdata postcode --batch < lookups.ndjson'],
    ));
  kit.route(group, {
    name: 'show',
    isDefault: true,
    route: 'postcodes.nearest',
    withArg: { param: 'postcode', route: 'postcodes.detail' },
    description: 'One postcode (any case and spacing), or the postcodes nearest --near LAT,LNG',
    args: [{ param: 'postcode', optional: true, variadic: true, description: 'a full postcode, e.g. LS8 3BS' }],
    batch: true,
    near: 'postcodes nearest this point, nearest first; with --radius-km (default 0.5, at most 2)',
    prepare: (call, opts) => prepare(call, opts),
    examples: ['publicdata postcode LS8 3BS', 'publicdata postcode --near 53.82,-1.51', 'echo \'{"postcodes":["LS8 3BS","SE1 2DL"]}\' | publicdata postcode --batch'],
  });
}

/** `publicdata area "LS8 3BS" [--radius-km 1] [--months 12] [--sections crime,schools]`. */
export function registerArea(program: Command, kit: CommandKit): void {
  const group = program
    .command('area')
    .summary("Area profile of a postcode: every domain's figures for the place, side by side")
    .description(kit.help(
      "Area profile (/v1/area/{postcode}, a publicdata extension): property, crime, schools, food hygiene, road safety,\n" +
        "traffic, earnings, companies, energy and calendar for one postcode, each from its own synced dataset; a section\n" +
        "whose dataset is not synced names its sync command. Each section's source paths run with 'publicdata api GET'.",
      ['publicdata area "LS8 3BS"', 'publicdata area LS8 3BS --radius-km 0.5 --sections crime,schools', 'publicdata area "LS8 3BS" --format json'],
    ));
  kit.route(group, {
    name: 'show',
    isDefault: true,
    route: 'area.profile',
    description: 'The area profile of one postcode (any case and spacing)',
    args: [{ param: 'postcode', variadic: true, description: 'a full postcode, e.g. "LS8 3BS"' }],
    flags: [{ flags: '--radius-km <km>', param: 'radius_km', description: 'circle around the postcode, 0.1 to 5 km (default 1)' }],
    examples: ['publicdata area "LS8 3BS"', 'publicdata area LS8 3BS --months 24 --sections crime', 'publicdata area "LS8 3BS" --format json'],
  });
}
