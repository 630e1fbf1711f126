/**
 * Issue 37, tables at 80 columns, the commands' own output: test/cli/tables-80.test.ts renders the route
 * samples through `api`; this file runs the commands themselves, in process (test/support/cli.ts) on the
 * fixture mirror of every domain, as a terminal 80 columns wide, and fails on any line over 80 on stdout
 * or stderr:
 * - every example every command declares in its --help (walked from the program, so a new command is
 *   covered without a line here), where it answers on the fixture mirror (the ones that need a file, a
 *   pipe, the network or a key are left out: sync, serve, auth, completion, help);
 * - for every answer with a renderer of its own (a domain manifest's `renderers`, and `mirror status` and
 *   `api --list`), the inputs that give its longest realistic lines (both fuels, the current period, a
 *   rank with its area and median, a compare with a region in each heading), with its answer figures
 *   checked whole against the `--format json` answer or worked out by hand.
 */
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { createContext } from '../../src/create-context.js';
import { DOMAINS, loadDomains } from '../../src/registry.js';
import { runCli, type RunResult } from '../support/cli.js';
import { useFixtureMirror } from '../support/route-samples.js';
import { COLUMNS, widest } from '../support/tables-80.js';

const fx = useFixtureMirror('commands-80-');

/** £12,345.67, as a person writes it (not the renderers' own formatter). */
const gbp = (n: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format(n);

/** Shell words of an example; undefined for one that needs a shell (a pipe, a redirect, a variable). */
function shellWords(s: string): string[] | undefined {
  if (/[|<>]|&&|\$|#/.test(s)) return undefined;
  const out: string[] = [];
  let cur: string | undefined;
  let quote = '';
  for (const ch of s) {
    if (quote) ch === quote ? (quote = '') : (cur = (cur ?? '') + ch);
    else if (ch === '"' || ch === "'") (quote = ch), (cur ??= '');
    else if (ch === ' ') cur !== undefined && (out.push(cur), (cur = undefined));
    else cur = (cur ?? '') + ch;
  }
  if (cur !== undefined) out.push(cur);
  return out;
}

/** Groups whose commands print no answer table (or need the network, a key or a terminal). */
const NOT_TABLES = new Set(['sync', 'serve', 'auth', 'completion', 'help']);
/** Options that read or write a file, or read stdin. */
const NEEDS_FILES = /^--(html|out|body|batch|csv|data)$/;

/** Every command's declared examples, as argv (without `publicdata`), with the command's path. */
async function examples(): Promise<Array<{ command: string; argv: string[] }>> {
  const io = { stdout: { write: () => true }, stderr: { write: () => true }, stdin: process.stdin, stdoutIsTTY: false, stderrIsTTY: false, columns: 100 };
  const program = await buildProgram(createContext({ io, env: {}, now: () => new Date() }));
  const out: Array<{ command: string; argv: string[] }> = [];
  const walk = (c: Command, path: string) => {
    for (const sub of c.commands) {
      const p = `${path} ${sub.name()}`.trim();
      const m = /\nExamples:\n((?: {2}\$ .*\n?)+)/.exec(sub.description());
      for (const line of m ? m[1]!.trim().split('\n') : []) {
        const w = shellWords(line.replace(/^\s*\$ /, ''));
        if (!w || w[0] !== 'publicdata' || NOT_TABLES.has(w[1]!) || w.some((x) => NEEDS_FILES.test(x))) continue;
        const argv = w.slice(1);
        const f = argv.indexOf('--format');
        if (f >= 0) argv.splice(f, 2);
        out.push({ command: p, argv });
      }
      walk(sub, p);
    }
  };
  walk(program, '');
  return out;
}

const EXAMPLES = await examples();

/** The command as a terminal 80 columns wide shows it. */
const at80 = (argv: string[]) => runCli([...argv, '--format', 'table'], { env: fx.env(), tty: true, columns: COLUMNS });
const asJson = async (argv: string[]) => JSON.parse((await runCli([...argv, '--format', 'json'], { env: fx.env() })).stdout) as { data: any; meta?: any };

function fits(r: RunResult): void {
  expect(widest(r.stdout), r.stdout).toBeLessThanOrEqual(COLUMNS);
  expect(widest(r.stderr), r.stderr).toBeLessThanOrEqual(COLUMNS);
}

/** The lines of a statement row (`  label  amount  note`) and the note's continuation lines under it, joined. */
function statementRow(stdout: string, label: string): string {
  const lines = stdout.split('\n');
  const i = lines.findIndex((l) => l.startsWith(`  ${label} `));
  expect(i, `${label} in\n${stdout}`).toBeGreaterThanOrEqual(0);
  const more: string[] = [];
  for (const l of lines.slice(i + 1)) {
    if (!/^ {8,}\S/.test(l)) break; // a note's next line sits under the note (a sub-row: 4 spaces)
    more.push(l.trim());
  }
  return [lines[i]!.replace(/\s+/g, ' ').trim(), ...more].join(' ');
}

const vatCsv = join(mkdtempSync(join(tmpdir(), 'commands-80-vat-')), 'q3.csv');
beforeAll(() => {
  writeFileSync(
    vatCsv,
    [
      'id,date,type,net_amount,vat_amount,gross_amount,vat_rate,supply_type',
      'S1,2026-07-01,sale,"1,000.00",200.00,"1,200.00",standard,domestic',
      'S2,2026-08-15,sale,50000.00,10000.00,60000.00,standard,domestic',
      'P1,2026-09-30,purchase,400.00,80.00,480.00,standard,domestic',
    ].join('\n'),
  );
});

/**
 * The longest realistic lines of each answer with a renderer of its own, by renderer id: a new renderer
 * fails the coverage test below until it has a case here.
 */
const OWN_RENDERERS: Record<string, string[][]> = {
  'tax.take-home.calculate': [
    ['tax', 'take-home', '45000', '--rank'],
    ['tax', 'take-home', '45000', '--rank', '--region', 'North West'],
    ['tax', 'take-home', '80000', '--pension', '5', '--pension-type', 'relief_at_source', '--student-loan', 'plan_2,postgraduate', '--rank', '--postcode', 'LS8 3BS'],
  ],
  'tax.take-home.sweep': [
    ['tax', 'take-home', '--sweep', '20000:150000:5000', '--student-loan', 'plan_2', '--pension', '5'],
    ['tax', 'take-home', '--sweep', '20000:150000:5000', '--chart'],
  ],
  'tax.compare': [
    ['tax', 'compare', '40000', '50000'],
    ['tax', 'compare', '45000', '52000', '--b-region', 'scotland', '--b-pension', '10', '--b-pension-type', 'salary_sacrifice'],
  ],
  'tax.vat.return.calculate': [['tax', 'vat-return', '--csv', vatCsv, '--period', '2026-07-01:2026-09-30', '--vrn', 'GB123456789']],
  'energy.price-cap.calculate': [
    ['energy', 'bill', '--electricity', '2700', '--gas', '11500'],
    ['energy', 'bill', '--electricity', '2700', '--gas', '11500', '--period', '2022-10'],
  ],
  'energy.price-cap.periods': [['energy', 'periods', '--chart']],
  'crime.statistics': [['crime', 'stats', '--lsoa', 'E01000916', '--months', '12', '--chart']],
  'earnings.percentile': [['earnings', 'rank', '42000', '--region', 'North West']],
  'earnings.regions': [['earnings', 'regions', 'North West', '--basis', 'residence']],
  'earnings.industries': [['earnings', 'industries', '62', '--measure', 'hourly_excluding_overtime']],
  'earnings.occupations': [['earnings', 'occupations', '2134', '--measure', 'weekly_gross']],
  'food-hygiene.establishments': [['food-hygiene', 'search', '--near', '51.1856,-0.6115', '--radius-km', '1']],
  'food-hygiene.statistics': [['food-hygiene', 'stats', '--postcode', 'LS6', '--chart']],
  'area.profile': [['area', 'LS8 3BS']],
  'property.hpi': [['property', 'hpi', '--region', 'London', '--from', '2015-01-01', '--all', '--chart']],
  'schools.inspections.statistics': [['schools', 'stats', '--authority', 'Leeds', '--chart']],
  'vehicles.registrations': [['vehicles', 'registrations', '--make', 'TESLA', '--geography', 'GB', '--all', '--chart']],
  'vehicles.licensing': [['vehicles', 'licensing', '--make', 'TESLA', '--geography', 'GB', '--licence-status', 'Licensed', '--all', '--chart']],
  'vehicles.traffic.aadf': [['vehicles', 'traffic', 'aadf', '--count-point', '46069', '--all', '--chart']],
  'vehicles.traffic.local-authority': [['vehicles', 'traffic', 'local-authority', '--local-authority', 'Leeds', '--all', '--chart']],
  'vehicles.traffic.regional': [['vehicles', 'traffic', 'regional', '--region', 'Scotland', '--breakdown', 'vehicle_type', '--all', '--chart']],
  // the test-only example domain's notes view (test/support/example-domain/)
  'example.notes': [['example', 'notes']],
  'mirror.status': [['mirror', 'status']],
  'api.list': [['api', '--list']],
};

describe('every command example at 80 columns', () => {
  it('the examples are found', () => {
    expect(EXAMPLES.map((e) => e.argv.slice(0, 2).join(' '))).toEqual(expect.arrayContaining(['tax take-home', 'energy bill', 'tax compare', 'api --list']));
  });

  for (const { command, argv } of EXAMPLES) {
    it(`${command}: ${argv.join(' ')}`, async () => {
      const r = await at80(argv);
      // an example the fixture mirror cannot answer prints its one-line error (not a table)
      if (r.code === 0) fits(r);
    });
  }
});

describe('every answer with a renderer of its own, at its longest, at 80 columns', () => {
  it('every registered renderer has its cases here', async () => {
    await loadDomains();
    const ids = [...DOMAINS.flatMap((d) => Object.keys(d.renderers ?? {})), 'mirror.status', 'api.list'];
    expect(Object.keys(OWN_RENDERERS).sort()).toEqual([...new Set(ids)].sort());
  });

  for (const [id, cases] of Object.entries(OWN_RENDERERS)) {
    for (const argv of cases) {
      it(`${id}: ${argv.join(' ')}`, async () => {
        const r = await at80(argv);
        expect(r.code, r.stderr).toBe(0);
        fits(r);
      });
    }
  }
});

describe('the answer figures stay whole', () => {
  it('tax take-home --rank: the amounts, and the rank with its area, year and median (the note wrapped at word boundaries)', async () => {
    for (const region of [[], ['--region', 'North West']]) {
      const argv = ['tax', 'take-home', '45000', '--rank', ...region];
      const [r, { data }] = [await at80(argv), await asJson(argv)];
      fits(r);
      // 45,000 in 2026-27 (England, Wales & NI): tax 20% of (45,000 - 12,570) = 6,486; NI 8% of the same = 2,594.40
      expect(statementRow(r.stdout, 'Net annual')).toBe('Net annual £35,919.60');
      expect(data.net_annual).toBe(35919.6);
      expect(data.rank).not.toBeNull();
      const { percentile, area, year, median } = data.rank as { percentile: number; area: string; year: number; median: number };
      expect(statementRow(r.stdout, 'Gross among full-time jobs')).toBe(`Gross among full-time jobs percentile ${percentile} ${area}, April ${year}, median ${gbp(median)} (ONS ASHE)`);
    }
  });

  it('tax compare 40000 50000: every figure of A, B and B − A whole', async () => {
    const r = await at80(['tax', 'compare', '40000', '50000']);
    fits(r);
    const row = (label: string) => r.stdout.split('\n').find((l) => l.startsWith(label))!.replace(/\s+/g, ' ');
    // 2026-27, England, Wales & NI: tax 20% above £12,570, NI 8% from £12,570 to £50,270
    expect(row('Gross income')).toBe('Gross income £40,000.00 £50,000.00 +£10,000.00');
    expect(row('Income tax')).toBe('Income tax £5,486.00 £7,486.00 +£2,000.00');
    expect(row('National Insurance')).toBe('National Insurance £2,194.40 £2,994.40 +£800.00');
    expect(row('Net annual')).toBe('Net annual £32,319.60 £39,519.60 +£7,200.00');
    expect(row('Marginal rate')).toBe('Marginal rate 28% 28% 0 pts');
    // the headings, wrapped at word boundaries: every word of each in order
    const heads = r.stdout.split('\n').slice(1, r.stdout.split('\n').findIndex((l) => l.startsWith('Gross income')));
    const words = heads.map((l) => l.trim().split(/\s{2,}/));
    expect(heads.length).toBeGreaterThan(0);
    expect(words.flat().join(' ')).toMatch(/^A \(England, Wales &( NI\))? B \(England, Wales & NI\) B − A( NI\))?$/);
  });

  it('energy bill, both fuels: the totals whole and the closing line wrapped at word boundaries', async () => {
    const argv = ['energy', 'bill', '--electricity', '2700', '--gas', '11500'];
    const [r, { data }] = [await at80(argv), await asJson(argv)];
    fits(r);
    expect(statementRow(r.stdout, 'Total a year')).toBe(`Total a year ${gbp(data.total_annual)}`);
    expect(statementRow(r.stdout, 'Electricity')).toBe(`Electricity ${gbp(data.electricity.total)}`);
    expect(statementRow(r.stdout, 'Gas')).toBe(`Gas ${gbp(data.gas.total)}`);
    // 2026-10 (the clock's period): no VAT on domestic electricity from 2026-10-01 to 2027-03-31
    const lines = r.stdout.split('\n');
    const close = lines.slice(lines.findIndex((l) => l.startsWith('  Monthly')) + 1).filter((l) => /^ {2}\S/.test(l));
    expect(close.map((l) => l.trim()).join(' ')).toBe('electricity without VAT, gas incl. VAT at 5%; rates as the cap sets them (maximums)');
  });

  it('api --list at 80 columns: method, path and cost on a line, where it answers and what under it', async () => {
    const lines = (await at80(['api', '--list'])).stdout.split('\n');
    const i = lines.findIndex((l) => l.startsWith('POST /v1/tax/take-home/calculate '));
    expect(lines[i]).toMatch(/ 10 credits$/);
    expect(lines[i + 1]).toMatch(/^ {5}local · Take-home pay: income tax, NI, student loans, pension; net/);
  });
});
