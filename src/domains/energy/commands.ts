/** `publicdata energy ...`: price-cap periods, rates, regions and the bill calculator. */
import { Command, Option } from 'commander';
import type { CommandKit, FlagSpec } from '../command-kit.js';
import { ENERGY_REGION_CODES, FUELS, METERS, PAYMENT_METHODS } from './routes.js';

const region: FlagSpec = {
  flags: '--region <region>', param: 'region', choices: ENERGY_REGION_CODES,
  description: 'GB electricity region by code or name, any case (north_west, "North West"; `energy regions` lists them), or gb_average',
};
const payment: FlagSpec = { flags: '--payment <method>', param: 'payment_method', description: PAYMENT_METHODS.join(', '), choices: PAYMENT_METHODS };
const meter: FlagSpec = { flags: '--meter <meter>', param: 'meter', description: 'single_rate or multi_register (Economy 7)', choices: METERS };
const period: FlagSpec = { flags: '--period <YYYY-MM>', param: 'period', description: "cap period (its first month) or 'current'" };
const date: FlagSpec = { flags: '--date <YYYY-MM-DD>', param: 'date', description: 'the period in force on this day' };

export function register(program: Command, kit: CommandKit): void {
  const energy = program
    .command('energy')
    .summary('Energy price cap: periods, regional rates, bill calculator')
    .description(
      kit.help("Ofgem's energy price cap (/v1/energy): periods and the calculator work offline from shipped data; regional rates after 'publicdata sync energy-price-cap'.", [
        'publicdata energy bill --electricity 2700 --gas 11500 --region london',
        'publicdata energy periods --chart',
      ]),
    );
  kit.route(energy, {
    name: 'periods',
    route: 'energy.price-cap.periods',
    withArg: { param: 'period_id', route: 'energy.price-cap.periods.get' },
    description: "Cap periods, newest first; one PERIOD (YYYY-MM); 'energy current' for the period in force",
    args: [{ param: 'period_id', optional: true, description: 'YYYY-MM, the first month of a period' }],
    extraOptions: [new Option('--chart', 'on a terminal: chart the typical Direct Debit bill over the periods')],
    examples: ['publicdata energy periods', 'publicdata energy periods 2025-10', 'publicdata energy periods --chart'],
  });
  kit.route(energy, { name: 'current', route: 'energy.price-cap.periods.current', description: 'The cap period in force today', examples: ['publicdata energy current'] });
  kit.route(energy, {
    name: 'rates',
    route: 'energy.price-cap.rates',
    description: 'Unit rates and standing charges (GB average until synced; every region after)',
    flags: [region, payment, meter, { flags: '--fuel <fuel>', param: 'fuel', description: FUELS.join(' or '), choices: FUELS }, period, date],
    examples: ['publicdata energy rates', 'publicdata energy rates --region london --payment prepayment', 'publicdata energy rates --date 2025-08-01 --fuel gas'],
  });
  kit.route(energy, {
    name: 'bill',
    route: 'energy.price-cap.calculate',
    description: 'Annual bill under the cap for your consumption (exact in pence)',
    flags: [
      { flags: '--electricity <kWh>', param: 'electricity_kwh', description: 'annual electricity use, kWh' },
      { flags: '--gas <kWh>', param: 'gas_kwh', description: 'annual gas use, kWh' },
      region,
      payment,
      meter,
      period,
      date,
    ],
    batch: true,
    bodyFile: true,
    examples: [
      'publicdata energy bill --electricity 2700 --gas 11500',
      'publicdata energy bill --electricity 2700 --gas 11500 --region london --payment prepayment',
      'publicdata energy bill --electricity 3100 --period 2025-10 --format json',
      'publicdata energy bill --batch < homes.ndjson',
    ],
  });
  kit.route(energy, { name: 'regions', route: 'energy.price-cap.regions', examples: ['publicdata energy regions'] });
}
