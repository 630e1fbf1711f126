/** `publicdata food-hygiene ...`: search establishments, show one, authorities, business types, statistics. */
import { Command, Option } from 'commander';
import type { CommandKit } from '../command-kit.js';

export function register(program: Command, kit: CommandKit): void {
  const fh = program
    .command('food-hygiene')
    .summary('food hygiene ratings of UK food businesses (FSA)')
    .description(kit.help(
      "Food hygiene ratings (/v1/food-hygiene) from the Food Standards Agency's open data (FHRS; FHIS in Scotland), offline after 'publicdata sync food-hygiene'. ratings.food.gov.uk is the authoritative current rating.",
      ['publicdata food-hygiene search pizza --postcode LS6', 'publicdata food-hygiene search --near 51.1856,-0.6115 --radius-km 1', 'publicdata food-hygiene stats --authority Leeds --chart'],
    ));
  kit.route(fh, {
    name: 'search',
    route: 'food-hygiene.establishments',
    description: 'Search establishments by name, postcode, authority, rating, or near a point',
    args: [{ param: 'name', optional: true, description: 'part of the business name (any case)' }],
    flags: [
      { flags: '--postcode <postcode>', param: 'postcode', description: 'full or partial postcode (LS6: that district; LS6 1: a prefix)' },
      { flags: '--radius-km <km>', param: 'radius_km', description: 'radius around --near in km (default 1, at most 50)' },
      { flags: '--rating <values>', param: 'rating', description: 'rating values, comma-separated: 0-5, exempt, awaiting_inspection, pass, pass_and_eat_safe, ...' },
      { flags: '--min-rating <n>', param: 'min_rating', description: 'FHRS rating of at least N (0 to 5)' },
      { flags: '--authority <code-or-name>', param: 'local_authority', description: "authority code (314) or part of its name (leeds)" },
      { flags: '--business-type <id>', param: 'business_type_id', description: "business type id (see 'food-hygiene business-types')" },
      { flags: '--scheme <scheme>', param: 'scheme', description: 'fhrs or fhis (Scotland)', choices: ['fhrs', 'fhis'] },
      { flags: '--sort <order>', param: 'sort', description: 'name, distance (with --near), rating or rating_date', choices: ['name', 'distance', 'rating', 'rating_date'] },
    ],
    near: 'search around this point, nearest first',
    examples: [
      'publicdata food-hygiene search pizza --postcode LS6',
      'publicdata food-hygiene search --near 53.8008,-1.5491 --radius-km 0.5 --min-rating 4',
      'publicdata food-hygiene search --authority 760 --rating pass_and_eat_safe --format csv --all',
    ],
  });
  kit.route(fh, {
    name: 'show',
    route: 'food-hygiene.establishment',
    description: 'One establishment by its FHRS id: rating and date, scores, address, authority contact',
    args: [{ param: 'fhrs_id', description: 'the FSA establishment id (FHRSID)' }],
    examples: ['publicdata food-hygiene show 1018650', 'publicdata food-hygiene show 1018650 --format json'],
  });
  kit.route(fh, {
    name: 'authorities',
    route: 'food-hygiene.authorities',
    description: 'Authorities in the mirror: code, scheme, establishments, extract date',
    examples: ['publicdata food-hygiene authorities --all', 'publicdata food-hygiene authorities --format csv --all'],
  });
  kit.route(fh, {
    name: 'business-types',
    route: 'food-hygiene.business-types',
    description: 'Business types with their ids and establishment counts',
    examples: ['publicdata food-hygiene business-types'],
  });
  kit.route(fh, {
    name: 'stats',
    aliases: ['statistics'],
    route: 'food-hygiene.statistics',
    description: 'Rating distribution, share rated 4 or 5 and average scores of an authority, a postcode area or all',
    flags: [
      { flags: '--authority <code-or-name>', param: 'local_authority', description: 'authority code (314) or part of its name (leeds)' },
      { flags: '--postcode <postcode>', param: 'postcode', description: 'postcode area, district or prefix (LS, LS6, LS6 1)' },
      { flags: '--business-type <id>', param: 'business_type_id', description: 'business type id' },
    ],
    extraOptions: [new Option('--chart', 'on a terminal: draw the rating distribution')],
    examples: ['publicdata food-hygiene stats --authority Leeds --chart', 'publicdata food-hygiene stats --postcode LS6', 'publicdata food-hygiene stats --business-type 7844'],
  });
}
