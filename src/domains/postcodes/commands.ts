/** `publicdata postcode LS8 3BS`, `publicdata postcode --near 53.82,-1.51`, `publicdata postcode --batch` (lookups). */
import { Command, Option } from 'commander';
import { ApiError } from '../../contract/errors.js';
import type { RouteCall } from '../../contract/types.js';
import type { CommandKit } from '../command-kit.js';
import { parseNear } from '../../amount.js';

function prepare(call: RouteCall, opts: Record<string, unknown>): RouteCall {
  if (opts.batch) {
    // NDJSON lookup bodies on stdin, {"postcodes": [...]} per line: one envelope per line
    return { method: 'POST', path: '/v1/postcodes/lookup', query: {}, body: {} };
  }
  if (opts.near !== undefined) {
    if (call.path !== '/v1/postcodes') throw new ApiError(400, 'usage_error', 'Give a postcode or --near, not both.');
    Object.assign(call.query, parseNear(String(opts.near)));
  } else if (call.path === '/v1/postcodes') {
    throw new ApiError(400, 'usage_error', "Give a postcode (publicdata postcode LS8 3BS) or --near LAT,LNG, or --batch with lookup bodies on stdin.");
  }
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
    extraOptions: [new Option('--near <lat,lng>', 'postcodes nearest this point (WGS84), nearest first; with --radius-km (default 0.5, at most 2)')],
    prepare: (call, opts) => prepare(call, opts),
    examples: ['publicdata postcode LS8 3BS', 'publicdata postcode --near 53.82,-1.51', 'echo \'{"postcodes":["LS8 3BS","SE1 2DL"]}\' | publicdata postcode --batch'],
  });
}
