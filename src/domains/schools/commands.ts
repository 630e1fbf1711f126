/** `publicdata schools ...`: search (by name, postcode, near a point), one school, inspection statistics. */
import { Command, Option } from 'commander';
import type { CommandKit } from '../command-kit.js';

const authority = { flags: '--authority <code-or-name>', param: 'local_authority', description: 'local authority: DfE code (383), ONS code (E08000035) or name' };

export function register(program: Command, kit: CommandKit): void {
  const schools = program
    .command('schools')
    .summary('Schools (GIAS register) with their latest Ofsted inspection')
    .description(kit.help(
      "Schools (/v1/schools): the GIAS register joined to Ofsted's latest inspections. Offline after\n" +
        "'publicdata sync schools'. Show every outcome with its inspection date (Ofsted's warning).",
      ['publicdata schools --near 51.45,-2.59 --phase primary', 'publicdata schools show 107848', 'publicdata schools stats --authority Leeds --chart'],
    ));
  kit.route(schools, {
    name: 'search',
    isDefault: true,
    route: 'schools.search',
    description: 'Search schools by NAME, postcode, area, or near a point (the default: `publicdata schools NAME`)',
    args: [{ param: 'name', optional: true, description: 'part of the school name' }],
    flags: [authority],
    near: 'search around this point, nearest first; with --radius-km (default 2, at most 25)',
    examples: [
      'publicdata schools --near 51.45,-2.59 --phase primary',
      'publicdata schools "St Mary" --authority Leeds',
      'publicdata schools --postcode LS20 --status all',
    ],
  });
  kit.route(schools, {
    name: 'show',
    route: 'schools.detail',
    description: 'One school by URN: register details, latest inspection with its grades, previous graded inspection',
    args: [{ param: 'urn', description: 'unique reference number' }],
    examples: ['publicdata schools show 107848', 'publicdata schools show 100000 --format json'],
  });
  kit.route(schools, {
    name: 'stats',
    route: 'schools.inspections.statistics',
    description: 'Counts of open schools by the framework of their latest inspection, graded judgements and report-card grades',
    flags: [authority],
    extraOptions: [new Option('--chart', 'on a terminal: bars of the grade distribution')],
    examples: ['publicdata schools stats --authority Leeds', 'publicdata schools stats --region London --phase secondary --chart'],
  });
}
