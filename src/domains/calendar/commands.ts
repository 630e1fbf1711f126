/** `publicdata calendar ...`: bank holidays and regions. */
import { Command } from 'commander';
import type { CommandKit } from '../command-kit.js';

export function register(program: Command, kit: CommandKit): void {
  const cal = program
    .command('calendar')
    .summary('UK bank holidays by region')
    .description(kit.help('Bank holidays (/v1/calendar), from the shipped GOV.UK snapshot or the synced copy.', [
      'publicdata calendar bank-holidays next',
      'publicdata calendar bank-holidays 2027 --region scotland',
    ]));
  kit.route(cal, {
    name: 'bank-holidays',
    aliases: ['holidays'],
    route: 'calendar.bank-holidays',
    withArg: { param: 'year', route: 'calendar.bank-holidays.year' },
    description: "Bank holidays of this year and next; of one YEAR; or 'next' per region",
    args: [{ param: 'year', optional: true, description: "a 4-digit year, or 'next'" }],
    examples: ['publicdata calendar bank-holidays', 'publicdata calendar bank-holidays next', 'publicdata calendar bank-holidays 2027 --region scotland'],
  });
  kit.route(cal, { name: 'regions', route: 'calendar.regions', examples: ['publicdata calendar regions'] });
}
