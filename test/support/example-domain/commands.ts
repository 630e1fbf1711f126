/** `publicdata example ...`: the example domain's commands (test-only). */
import { Command, Option } from 'commander';
import { parseNear } from '../../../src/amount.js';
import type { RouteCall } from '../../../src/contract/types.js';
import type { CommandKit } from '../../../src/domains/command-kit.js';

function near(call: RouteCall, opts: Record<string, unknown>): RouteCall {
  if (opts.near !== undefined) Object.assign(call.query, parseNear(String(opts.near)));
  return call;
}

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
    extraOptions: [new Option('--near <lat,lng>', 'around this point (WGS84)')],
    prepare: (call, opts) => near(call, opts),
    examples: ['publicdata example items', 'publicdata example items --colour red'],
  });
  kit.route(ex, { name: 'show', route: 'example.item', idOnly: true, description: 'One item by id', args: [{ param: 'item_id', description: 'the item id' }], examples: ['publicdata example show 3'] });
  kit.route(ex, { name: 'summary', route: 'example.summary', description: 'Counts or totals', flags: [{ flags: '--colour <colour>', param: 'colour', description: 'only this colour' }], examples: ['publicdata example summary', 'publicdata example summary --basis totals'] });
  kit.route(ex, { name: 'notes', route: 'example.notes', description: 'An empty list with a note', examples: ['publicdata example notes'] });
}
