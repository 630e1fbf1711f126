/** `publicdata vehicles ...`: licensing, registrations, MOT, collisions, traffic (mirror or live). */
import { Command, Option } from 'commander';
import type { CommandKit } from '../command-kit.js';

export function register(program: Command, kit: CommandKit): void {
  const v = program
    .command('vehicles')
    .summary('DfT/DVSA: licensing, registrations, MOT results, collisions, traffic')
    .description(kit.help('Vehicle and road data (/v1/vehicles). Every route answers offline after\n`publicdata sync vehicle-licensing mot road-safety road-traffic`; otherwise the live API answers (needs a key).', [
      'publicdata vehicles collisions --year 2023 --severity 1',
      'publicdata vehicles licensing --make TESLA --geography UK',
    ]));
  kit.route(v, {
    name: 'licensing',
    route: 'vehicles.licensing',
    extraOptions: [new Option('--chart', 'on a terminal: chart the vehicles counted by quarter')],
    examples: [
      'publicdata vehicles licensing --make TESLA --geography UK',
      'publicdata vehicles licensing --make FORD --model FIESTA --quarter-from 2020-03-31',
      'publicdata vehicles licensing --make TESLA --geography GB --licence-status Licensed --all --chart',
    ],
  });
  kit.route(v, {
    name: 'registrations',
    route: 'vehicles.registrations',
    extraOptions: [new Option('--chart', 'on a terminal: chart first registrations by quarter')],
    examples: ['publicdata vehicles registrations --make KIA --geography GB', 'publicdata vehicles registrations --make TESLA --geography GB --all --chart'],
  });
  kit.route(v, { name: 'mot-tests', route: 'vehicles.mot-tests', examples: ['publicdata vehicles mot-tests --make FORD --result failed --postcode-area LS'] });
  kit.route(v, { name: 'mot-pass-rates', route: 'vehicles.mot-pass-rates', examples: ['publicdata vehicles mot-pass-rates --make VOLKSWAGEN --model GOLF --vehicle-age-band 10-14'] });
  kit.route(v, { name: 'mot-failures', route: 'vehicles.mot-failures', examples: ['publicdata vehicles mot-failures --make VAUXHALL --dangerous-only'] });
  kit.route(v, {
    name: 'collisions',
    route: 'vehicles.collisions',
    withArg: { param: 'collision_index', route: 'vehicles.collisions.get' },
    args: [{ param: 'collision_index', optional: true, description: 'one collision (with vehicles and casualties)' }],
    flags: [
      { flags: '--from <date>', param: 'date_from', description: 'first date, inclusive' },
      { flags: '--to <date>', param: 'date_to', description: 'last date, inclusive' },
    ],
    examples: ['publicdata vehicles collisions --year 2023', 'publicdata vehicles collisions --local-authority E08000035 --from 2023-01-01 --to 2023-03-31', 'publicdata vehicles collisions 2023010419171'],
  });
  kit.route(v, {
    name: 'collisions-near',
    route: 'vehicles.road-safety.nearby',
    near: 'collisions around this point, nearest first; with --radius-km (default 1, 0.1 to 25) and --year-from/--year-to (default the newest five years held)',
    examples: [
      'publicdata vehicles collisions-near --near "LS8 3BS" --radius-km 1',
      'publicdata vehicles collisions-near --near 53.8,-1.55 --year-from 2023 --severity 1',
    ],
  });
  kit.route(v, {
    name: 'collisions-summary',
    route: 'vehicles.road-safety.nearby.summary',
    near: 'collisions around this point: counts by severity and casualties, per year; with --radius-km (default 1, 0.1 to 25)',
    examples: [
      'publicdata vehicles collisions-summary --near "LS8 3BS"',
      'publicdata vehicles collisions-summary --near 53.8,-1.55 --radius-km 2 --year-from 2021 --year-to 2023',
    ],
  });
  const t = v.command('traffic').summary('DfT road traffic statistics').description(kit.help('Road traffic counts and estimates.', [
    'publicdata vehicles traffic aadf --local-authority Leeds --year-from 2019',
    'publicdata vehicles traffic regional --breakdown vehicle_type',
  ]));
  kit.route(t, {
    name: 'count-points',
    route: 'vehicles.traffic.count-points',
    near: 'count points around this point, nearest first; with --radius-km (default 5, at most 100)',
    examples: ['publicdata vehicles traffic count-points --near 53.8,-1.55 --radius-km 2', 'publicdata vehicles traffic count-points --lat 53.8 --lng -1.55 --radius-km 2'],
  });
  const chart = () => [new Option('--chart', 'on a terminal: chart all motor vehicle traffic by year (first series of the answer)')];
  kit.route(t, {
    name: 'aadf',
    route: 'vehicles.traffic.aadf',
    extraOptions: chart(),
    examples: ['publicdata vehicles traffic aadf --local-authority Leeds --year-from 2019', 'publicdata vehicles traffic aadf --count-point 46069 --all --chart'],
  });
  kit.route(t, {
    name: 'regional',
    route: 'vehicles.traffic.regional',
    extraOptions: chart(),
    examples: ['publicdata vehicles traffic regional --breakdown vehicle_type --region "North West"', 'publicdata vehicles traffic regional --region Scotland --breakdown vehicle_type --all --chart'],
  });
  kit.route(t, {
    name: 'local-authority',
    route: 'vehicles.traffic.local-authority',
    extraOptions: chart(),
    examples: ['publicdata vehicles traffic local-authority --local-authority Leeds', 'publicdata vehicles traffic local-authority --local-authority Leeds --all --chart'],
  });
}
