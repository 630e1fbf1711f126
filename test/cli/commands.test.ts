/** In-process command tests: exact output in terminal and piped modes, exit codes, batch. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli, json } from '../support/cli.js';
import { ROUTES } from '../../src/registry.js';

const ESC = '\u001b[';
const META_GOVUK = {
  api_version: 'v1',
  licence: 'Open Government Licence v3.0',
  source: 'GOV.UK',
  source_url: 'https://www.gov.uk/bank-holidays',
};

describe('output modes', () => {
  it('piped: prints the envelope exactly, as one JSON line', async () => {
    const r = await runCli(['calendar', 'regions']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `${JSON.stringify({
        data: {
          regions: [
            { slug: 'england_and_wales', name: 'England and Wales' },
            { slug: 'scotland', name: 'Scotland' },
            { slug: 'northern_ireland', name: 'Northern Ireland' },
          ],
        },
        meta: META_GOVUK,
      })}\n`,
    );
    expect(r.stderr).toBe('');
  });

  it('terminal: a table with a footer, bold headers only when colour is on', async () => {
    const r = await runCli(['calendar', 'regions'], { tty: true });
    expect(r.stdout).toBe(
      [
        '┌───────────────────┬───────────────────┐',
        `│ ${ESC}1mslug${ESC}22m              │ ${ESC}1mname${ESC}22m              │`,
        '│ england_and_wales │ England and Wales │',
        '│ scotland          │ Scotland          │',
        '│ northern_ireland  │ Northern Ireland  │',
        '└───────────────────┴───────────────────┘',
        `${ESC}2m3 records · source: local${ESC}22m`,
        '',
      ].join('\n'),
    );
    const plain = await runCli(['calendar', 'regions', '--no-color'], { tty: true });
    expect(plain.stdout).not.toContain(ESC);
    const noColor = await runCli(['calendar', 'regions'], { tty: true, env: { NO_COLOR: '1' } });
    expect(noColor.stdout).not.toContain(ESC);
    expect(noColor.stdout.split('\n').at(-2)).toBe('3 records · source: local');
  });

  it('ndjson: one record a line; csv with --fields', async () => {
    const nd = await runCli(['calendar', 'regions', '--format', 'ndjson']);
    expect(nd.stdout.trim().split('\n').map((l) => JSON.parse(l).slug)).toEqual(['england_and_wales', 'scotland', 'northern_ireland']);
    const csv = await runCli(['calendar', 'bank-holidays', '2026', '--region', 'scotland', '--format', 'csv', '--fields', 'date,title']);
    expect(csv.stdout.split('\r\n').slice(0, 4)).toEqual(['date,title', '2026-01-01,New Year’s Day', '2026-01-02,2nd January', '2026-04-03,Good Friday']);
  });

  it('--fields projects records inside the envelope', async () => {
    const r = json(await runCli(['calendar', 'regions', '--fields', 'slug']));
    expect(r.data.regions).toEqual([{ slug: 'england_and_wales' }, { slug: 'scotland' }, { slug: 'northern_ireland' }]);
    expect(r.meta).toEqual(META_GOVUK);
  });
});

describe('errors and exit codes', () => {
  it('usage errors: one line in the error envelope, exit 2', async () => {
    const r = await runCli(['tax', 'take-home', '45000', '--bogus']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe(
      '{"error":{"code":"usage_error","message":"unknown option \'--bogus\'","documentation_url":"https://docs.govdata.dev/errors/usage_error"}}\n',
    );
    const t = await runCli(['tax', 'nonsense'], { tty: true, env: { NO_COLOR: '1' } });
    expect(t.code).toBe(2);
    expect(t.stderr).toBe("error usage_error: unknown command 'nonsense'\n");
    expect(t.stdout).toBe('');
  });

  it('validation errors use the spec codes and exit 2 (400) or 1 (404/422)', async () => {
    const region = await runCli(['tax', 'income-tax', '30000', '--region', 'atlantis']); // ('wales' is england_wales_ni since issue 37)
    expect([region.code, json(region).error.code]).toEqual([2, 'invalid_region']);
    const year = await runCli(['tax', 'bands', '1989-90']);
    expect([year.code, json(year).error.code]).toEqual([1, 'invalid_tax_year']);
    const bad = await runCli(['api', 'POST', '/v1/tax/income/calculate', '--data', '{nope']);
    expect([bad.code, json(bad).error.code]).toEqual([2, 'usage_error']);
    const yr = await runCli(['calendar', 'bank-holidays', '20x6']);
    expect([yr.code, json(yr).error.code]).toEqual([2, 'invalid_year']);
  });

  it('a route whose dataset is not synced, with no key, names the sync command and the key (exit 1)', async () => {
    // Every route now has a local handler; without its data and without a key the answer says what would serve it.
    const r = await runCli(['companies', 'show', '00445790']);
    expect(r.code).toBe(1);
    expect(json(r).error.code).toBe('dataset_not_synced');
    expect(json(r).error.message).toContain("'publicdata sync companies'");
    expect(json(r).error.message).toContain('PUBLICDATA_API_KEY');
    const live = await runCli(['companies', 'show', '00445790', '--source', 'live']);
    expect([live.code, json(live).error.code]).toEqual([4, 'unauthorized']);
  });

  it('never prints a stack trace for user errors', async () => {
    for (const args of [['api', 'GET'], ['api', 'PUT', '/v1/tax/years'], ['tax', 'vat-return'], ['tax', 'take-home', '--body', '/nonexistent.json']]) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout + r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe('api command', () => {
  it('--list shows every route with its cost', async () => {
    const r = await runCli(['api', '--list'], { tty: true });
    const lines = r.stdout.trim().split('\n');
    expect(lines.at(-1)).toBe(`${ROUTES.length} routes`);
    expect(lines.find((l) => l.startsWith('POST /v1/tax/take-home/calculate'))).toMatch(/10 credits\s+local\s+Take-home/);
    expect(lines.find((l) => l.startsWith('GET  /v1/companies/search'))).toMatch(/ 1 credit\s+local \(sync companies\)/);
    expect(lines.find((l) => l.startsWith('GET  /v1/companies/{company_number}/financials'))).toMatch(/ 1 credit\s+local \(sync accounts\)/);
    const piped = JSON.parse((await runCli(['api', '--list'])).stdout);
    expect(piped.data).toHaveLength(ROUTES.length); // issue 9: api --list writes through the renderer registry, JSON is the {data, meta} envelope
  });

  it('prints the envelope of a local call, -F typed fields and query strings', async () => {
    const a = json(await runCli(['api', 'GET', '/v1/calendar/bank-holidays?region=northern_ireland']));
    expect(new Set(a.data.bank_holidays.map((h: { region: string }) => h.region))).toEqual(new Set(['northern_ireland']));
    const b = json(await runCli(['api', 'GET', 'calendar/bank-holidays', '-F', 'region=scotland']));
    expect(b.data.bank_holidays[0]).toEqual({ date: '2026-01-01', title: 'New Year’s Day', region: 'scotland', notes: null, bunting: true });
  });
});

describe('batch', () => {
  it('one envelope per line in order; bad lines get their error and the batch goes on', async () => {
    const input = ['{"gross_income":30000}', 'not json', '{"gross_income":"x"}', '', '{"gross_income":50000,"region":"atlantis"}', '{"gross_income":20000}'].join('\n');
    const r = await runCli(['tax', 'take-home', '--batch'], { stdin: input });
    const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(out).toHaveLength(5);
    expect(out.map((e) => e.data?.gross_income ?? e.error.code)).toEqual([30000, 'bad_request', 'bad_request', 'invalid_region', 20000]);
    expect(out[1].error.message).toBe('Line 2: not valid JSON.');
    expect(r.code).toBe(2);
  });

  it('flags give defaults that each line may override; exit 0 when every line succeeds', async () => {
    const r = await runCli(['tax', 'take-home', '--batch', '--region', 'scotland'], { stdin: '{"gross_income":40000}\n{"gross_income":40000,"region":"england_wales_ni"}\n' });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).data.region)).toEqual(['scotland', 'england_wales_ni']);
  });
});

describe('help', () => {
  it('companies --help says the financial routes answer offline after sync accounts (not live only)', async () => {
    const r = await runCli(['companies', '--help']);
    expect(r.stdout).toContain("'publicdata sync accounts'");
    expect(r.stdout).not.toMatch(/financial routes are served by the live API/);
  });

  it('every command help starts with 2 to 4 examples', async () => {
    const { buildProgram } = await import('../../src/cli.js');
    const { Command } = await import('commander');
    const { createContext } = await import('../../src/create-context.js');
    const program = await buildProgram(createContext({
      io: { stdout: { write: () => true }, stderr: { write: () => true }, stdin: process.stdin, stdoutIsTTY: false, stderrIsTTY: false, columns: 100 },
      env: {},
      now: () => new Date(),
    }));
    const bad: string[] = [];
    const walk = (c: InstanceType<typeof Command>, path: string) => {
      for (const sub of c.commands) {
        const p = `${path} ${sub.name()}`;
        const m = /\nExamples:\n((?: {2}\$ .*\n?)+)/.exec(sub.description());
        const n = m ? m[1]!.trim().split('\n').length : 0;
        if (n < 2 || n > 4) bad.push(`${p}: ${n}`);
        walk(sub, p);
      }
    };
    walk(program, 'publicdata');
    expect(bad).toEqual([]);
  });

  it('help exit-codes documents every exit code', async () => {
    const r = await runCli(['help', 'exit-codes']);
    for (const c of [0, 1, 2, 3, 4, 5, 6]) expect(r.stdout).toMatch(new RegExp(`^  ${c}  `, 'm'));
  });

  it('completion scripts name the command groups', async () => {
    const bash = await runCli(['completion', 'bash']);
    expect(bash.stdout).toContain('complete -F _publicdata publicdata');
    expect(bash.stdout).toContain('"tax") words="take-home');
    const fish = await runCli(['completion', 'fish']);
    expect(fish.stdout).toContain("complete -c publicdata -n '__fish_seen_subcommand_from tax' -a take-home");
  });

  it('bash completion: no repeated root flags, dataset names after sync, values after --format (run in bash)', async () => {
    const script = (await runCli(['completion', 'bash'])).stdout;
    // Complete `publicdata <words...> <cur>` in a real bash with the generated function.
    const complete = (...words: string[]) => {
      const all = ['publicdata', ...words];
      const r = spawnSync('bash', ['-c', `${script}\nCOMP_WORDS=(${all.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${all.length - 1}; _publicdata; printf '%s\\n' "\${COMPREPLY[@]}"`], { encoding: 'utf8' });
      return r.stdout.trim().split('\n');
    };
    const root = complete('');
    expect(root.filter((w) => w === '--format')).toHaveLength(1);
    expect(root).toContain('tax');
    expect(complete('sync', '')).toEqual(expect.arrayContaining(['price-paid', 'hpi', 'bank-holidays', '--all']));
    expect(complete('tax', 'take-home', '--format', '')).toEqual(['table', 'json', 'ndjson', 'csv']);
    expect(complete('tax', 'take-home', '--format', 'nd')).toEqual(['ndjson']);
    expect(complete('--source', '')).toEqual(['auto', 'live', 'local']);
  });

  it('zsh completion starts with #compdef; fish completes --format values', async () => {
    expect((await runCli(['completion', 'zsh'])).stdout.split('\n')[0]).toBe('#compdef publicdata');
    expect((await runCli(['completion', 'fish'])).stdout).toContain("-l format -xa 'table json ndjson csv'");
  });

  it('leaf --help lists the inherited global options; -v alone prints the version', async () => {
    const h = await runCli(['tax', 'take-home', '--help']);
    expect(h.stdout).toMatch(/Global Options:[\s\S]*--format <format>[\s\S]*--fields <list>/);
    const { VERSION } = await import('../../src/version.js');
    expect(await runCli(['-v'])).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
  });
});

describe('tables fit the terminal', () => {
  it('narrows the widest columns so no line is wider than the terminal', async () => {
    const { fitWidths } = await import('../../src/output/render.js');
    expect(fitWidths([10, 40, 12], 80)).toEqual([10, 40, 12]);
    const w = fitWidths([10, 60, 30], 60);
    expect(w.reduce((a, b) => a + b, 0) + 4).toBeLessThanOrEqual(60);
    expect(w[0]).toBe(10);
    const r = await runCli(['calendar', 'bank-holidays', '--no-color'], { tty: true, columns: 50 });
    const widths = r.stdout.split('\n').map((l) => [...l].length);
    expect(Math.max(...widths)).toBeLessThanOrEqual(50);
  });
});
