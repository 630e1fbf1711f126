/** `publicdata property ...`: designations, house price index, council tax, sold prices. */
import { Command, Option } from 'commander';
import type { RouteCall } from '../../contract/types.js';
import { ApiError } from '../../contract/errors.js';
import type { CommandKit, RouteCommandSpec } from '../command-kit.js';

/** `--bbox minLng,minLat,maxLng,maxLat` sets the four bounds (GeoJSON order). */
function bbox(call: RouteCall, opts: Record<string, unknown>): RouteCall {
  if (opts.bbox === undefined) return call;
  const parts = String(opts.bbox).split(',').map((s) => s.trim());
  if (parts.length !== 4) throw new ApiError(400, 'invalid_parameter', '--bbox takes four numbers: minLng,minLat,maxLng,maxLat.');
  const [minLng, minLat, maxLng, maxLat] = parts as [string, string, string, string];
  Object.assign(call.query, { min_lng: minLng, min_lat: minLat, max_lng: maxLng, max_lat: maxLat });
  return call;
}

function designation(kind: 'listed-buildings' | 'conservation-areas', label: string, ex: string[]): RouteCommandSpec {
  return {
    name: kind,
    route: `property.${kind}.list`,
    withArg: { param: 'entity_id', route: `property.${kind}.get` },
    description: `${label}: search by name prefix, organisation or bounding box; or one entity by id`,
    args: [{ param: 'entity_id', optional: true, description: 'entity id (shows one entity)' }],
    flags: [{ flags: '--organisation <entity>', param: 'organisation_entity', description: 'organisation entity id' }],
    extraOptions: [new Option('--bbox <minLng,minLat,maxLng,maxLat>', 'bounding box (WGS84)')],
    prepare: (call, opts) => bbox(call, opts),
    examples: ex,
  };
}

export function register(program: Command, kit: CommandKit): void {
  const property = program
    .command('property')
    .summary('listed buildings, conservation areas, house price index, council tax, sold prices')
    .description(
      kit.help('Property data (/v1/property). Local answers need `publicdata sync <dataset>` first.', [
        'publicdata property hpi --region London --from 2020-01-01',
        'publicdata property price-paid search --postcode "LS8 3BS"',
        'publicdata property council-tax --authority-name leeds --band D',
      ]),
    );
  kit.route(property, designation('listed-buildings', 'Listed buildings', [
    'publicdata property listed-buildings --name "church of st"',
    'publicdata property listed-buildings --bbox -0.13,51.49,-0.11,51.51',
    'publicdata property listed-buildings 31599893',
  ]));
  kit.route(property, designation('conservation-areas', 'Conservation areas', [
    'publicdata property conservation-areas --name "brixton"',
    'publicdata property conservation-areas --organisation 192 --all --format ndjson',
  ]));
  kit.route(property, {
    name: 'hpi',
    route: 'property.hpi',
    description: 'UK house price index by region and month',
    extraOptions: [new Option('--chart', 'on a terminal: chart the average price series')],
    examples: [
      'publicdata property hpi --region London --from 2020-01-01',
      'publicdata property hpi --region E09000033 --from 2023-01-01 --to 2023-12-01 --format csv',
      'publicdata property hpi --region London --from 2015-01-01 --all --chart',
    ],
  });
  kit.route(property, { name: 'hpi-regions', route: 'property.hpi.regions', examples: ['publicdata property hpi-regions', 'publicdata property hpi-regions --format csv'] });
  kit.route(property, {
    name: 'council-tax',
    route: 'property.council-tax',
    flags: [{ flags: '--year <financial_year>', param: 'financial_year', description: 'financial year YYYY-YY' }],
    examples: ['publicdata property council-tax --authority-name leeds --band D', 'publicdata property council-tax --authority-code E08000035'],
  });
  const pp = property
    .command('price-paid')
    .summary('HM Land Registry sold prices: search, address history, one sale, statistics')
    .description(
      kit.help('Sold prices in England and Wales since 1995 (/v1/property/price-paid).', [
        'publicdata property price-paid search --postcode "LS8 3BS"',
        'publicdata property price-paid address --street "BIDSTON ROAD" --number 36',
        'publicdata property price-paid stats --postcode LS8',
      ]),
    );
  const type = { flags: '--type <type>', param: 'property_type', description: 'detached, semi_detached, terraced or flat', choices: ['detached', 'semi_detached', 'terraced', 'flat'] };
  kit.route(pp, { name: 'search', route: 'property.price-paid.search', flags: [type], examples: ['publicdata property price-paid search --postcode "LS8 3BS"', 'publicdata property price-paid search --town LEEDS --type flat --all --format ndjson'] });
  kit.route(pp, { name: 'address', route: 'property.price-paid.address', examples: ['publicdata property price-paid address --street "BIDSTON ROAD" --number 36', 'publicdata property price-paid address --street "MATFEN PLACE" --from 1995-01-01 --to 1999-12-31'] });
  kit.route(pp, { name: 'show', route: 'property.price-paid.get', idOnly: true, args: [{ param: 'id', description: 'transaction UUID' }], examples: ['publicdata property price-paid show 5BBE9CB3-6332-4EB0-9CD3-8737CEA4A65A'] });
  kit.route(pp, { name: 'stats', aliases: ['statistics'], route: 'property.price-paid.statistics', examples: ['publicdata property price-paid stats --postcode LS8', 'publicdata property price-paid stats --district LEEDS --from 2024-01-01'] });
}
