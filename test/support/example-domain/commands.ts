/** `publicdata example ...`: the example domain's commands (test-only). */
import { Command } from 'commander';
import type { CommandKit } from '../../../src/domains/command-kit.js';
import { calculateCommand } from './calculate.js';

export function register(program: Command, kit: CommandKit): void {
  const ex = program.command('example').summary('the example domain (tests only)').description(kit.help('Example items (/v1/example), invented for tests.', ['publicdata example items', 'publicdata example show 3']));
  kit.route(ex, {
    name: 'items',
    route: 'example.items',
    description: 'Search the example items',
    args: [{ param: 'name', optional: true, description: 'part of the title' }],
    flags: [
      { flags: '--colour <colour>', param: 'colour', description: 'red, green or blue', choices: ['red', 'green', 'blue'] },
      { flags: '--radius-km <km>', param: 'radius_km', description: 'radius around --near in km' },
    ],
    near: 'around this point',
    examples: ['publicdata example items', 'publicdata example items --colour red'],
  });
  kit.route(ex, { name: 'show', route: 'example.item', idOnly: true, description: 'One item by id', args: [{ param: 'item_id', description: 'the item id' }], examples: ['publicdata example show 3'] });
  kit.route(ex, { name: 'summary', route: 'example.summary', description: 'Counts or totals', flags: [{ flags: '--colour <colour>', param: 'colour', description: 'only this colour' }], examples: ['publicdata example summary', 'publicdata example summary --basis totals'] });
  kit.route(ex, { name: 'records', route: 'example.records', description: 'The synced example records', flags: [{ flags: '--colour <colour>', param: 'colour', description: 'red, green or blue' }, { flags: '--year <year>', param: 'year', description: 'dated in this year' }], examples: ['publicdata example records', 'publicdata example records --colour red --year 2024'] });
  kit.route(ex, { name: 'events', route: 'example.events', description: 'The synced example events', flags: [{ flags: '--colour <colour>', param: 'colour', description: 'red, green or blue' }], examples: ['publicdata example events', 'publicdata example events --colour blue'] });
  kit.route(ex, { name: 'notes', route: 'example.notes', description: 'An empty list with a note', examples: ['publicdata example notes'] });
  kit.route(ex, calculateCommand);
}
