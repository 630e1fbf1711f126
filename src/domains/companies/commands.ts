/** `publicdata companies ...`: Companies House register, PSCs and filings (register and PSC routes offline after a sync). */
import { Command } from 'commander';
import type { CommandKit, RouteCommandSpec } from '../command-kit.js';

const n = { param: 'company_number', description: 'company number, e.g. 00445790' };
const per = (name: string, route: string, example: string, aliases?: string[]): RouteCommandSpec => ({
  name,
  route,
  ...(aliases ? { aliases } : {}),
  args: [n],
  idOnly: true,
  examples: [example, `${example.split(' --')[0]} --format json`],
});

export const companiesCommands: RouteCommandSpec[] = [
  { name: 'search', route: 'companies.search', args: [{ param: 'q', description: 'search text (2+ characters)' }], examples: ['publicdata companies search tesco', 'publicdata companies search "acme widgets" --status active --all --format ndjson'] },
  { name: 'list', route: 'companies.list', examples: ['publicdata companies list --sic-code 62020 --status active', 'publicdata companies list --postcode EC1 --format csv'] },
  { ...per('show', 'companies.get', 'publicdata companies show 00445790', ['get']), examples: ['publicdata companies show 00445790', 'publicdata companies show SC123456 --format json'] },
  { name: 'sic-codes', route: 'companies.sic-codes', withArg: { param: 'code', route: 'companies.sic-codes.get' }, args: [{ param: 'code', optional: true, description: 'one SIC code' }], examples: ['publicdata companies sic-codes --section J', 'publicdata companies sic-codes 62020'] },
  { name: 'statistics', aliases: ['stats'], route: 'companies.statistics', examples: ['publicdata companies statistics'] },
  { ...per('financials', 'companies.financials', 'publicdata companies financials 00445790 --limit 5') },
  per('psc', 'companies.psc', 'publicdata companies psc 00445790'),
  per('psc-changes', 'companies.psc.changes', 'publicdata companies psc-changes 00445790'),
  {
    name: 'compare',
    route: 'companies.compare',
    args: [{ param: 'company_numbers', variadic: true, description: '2 to 10 company numbers' }],
    bodyFile: true,
    examples: ['publicdata companies compare 00445790 00102498', 'publicdata companies compare --body numbers.json'],
  },
  { name: 'benchmarks', route: 'companies.benchmarks', args: [{ param: 'sic_code', description: 'SIC code' }], examples: ['publicdata companies benchmarks 62020'] },
  per('benchmark', 'companies.benchmark', 'publicdata companies benchmark 00445790'),
  per('network', 'companies.network', 'publicdata companies network 00445790'),
  per('filing-status', 'companies.filing-status', 'publicdata companies filing-status 00445790'),
  per('trends', 'companies.trends', 'publicdata companies trends 00445790'),
  per('health', 'companies.health', 'publicdata companies health 00445790'),
  { name: 'sector', route: 'companies.sector-analytics', args: [{ param: 'sic_code', description: 'SIC code' }], examples: ['publicdata companies sector 62020'] },
  { name: 'geography', route: 'companies.geography', args: [{ param: 'postcode_prefix', description: 'postcode prefix, e.g. EC1' }], examples: ['publicdata companies geography EC1'] },
  per('timeline', 'companies.timeline', 'publicdata companies timeline 00445790'),
  { name: 'recent-filings', route: 'companies.recent-filings', examples: ['publicdata companies recent-filings --filing-type full', 'publicdata companies recent-filings --all --format ndjson'] },
];

export function register(program: Command, kit: CommandKit): void {
  const c = program
    .command('companies')
    .summary('Companies House: search, details, PSCs, financials, benchmarks (all offline after a sync)')
    .description(kit.help(
      "Company register, PSCs and filings (/v1/companies). Offline after 'publicdata sync companies psc' (SIC codes need no sync); " +
        "financials, trends, health and benchmarks after 'publicdata sync accounts' too; otherwise the live API answers (needs a key).", [
      'publicdata companies show 00445790',
      'publicdata companies search tesco --status active',
    ]));
  for (const spec of companiesCommands) kit.route(c, spec);
}
