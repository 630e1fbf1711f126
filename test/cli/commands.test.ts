/**
 * In-process command tests: exact output in terminal and piped modes, exit codes, batch, help and
 * completion, on the example domain (test/support/example-domain/: the values below are worked out by hand
 * from its data.ts). Each domain's own command tests are in test/<domain>/commands.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli, json } from '../support/cli.js';
import { DATASETS, ROUTES } from '../../src/registry.js';

const ESC = '\u001b[';
const META = { api_version: 'v1', caveat: 'Example data, invented for tests.', warning: 'Example warning: these items are not real.' };
/** Item 3 of data.ts: colour COLOURS[3 % 3] = red, count 3 x 7, latitude 51 + 3/100, longitude -1 + 3/100. */
const ITEM_3 = { id: 3, title: 'Example item number 3 with a title long enough to be cut at eighty columns', colour: 'red', count: 21, markers: {}, location: { latitude: 51.03, longitude: -0.97 } };
/** The items whose title holds '3 with': ids 3, 13, 23, 33, 43, 53 (colour by id % 3: 0 red, 1 green, 2 blue; count id x 7). */
const THREES = [[3, 'red', 21], [13, 'green', 91], [23, 'blue', 161], [33, 'red', 231], [43, 'green', 301], [53, 'blue', 371]] as const;

describe('output modes', () => {
  it('piped: prints the envelope exactly, as one JSON line', async () => {
    const r = await runCli(['example', 'show', '3']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${JSON.stringify({ data: ITEM_3, meta: META })}\n`);
    expect(r.stderr).toBe('');
  });

  it('terminal: a table with a footer, bold headers only when colour is on', async () => {
    const r = await runCli(['example', 'items', '3 with', '--fields', 'id,colour,count'], { tty: true });
    expect(r.stdout).toBe(
      [
        '┌────┬────────┬───────┐',
        `│ ${ESC}1mid${ESC}22m │ ${ESC}1mcolour${ESC}22m │ ${ESC}1mcount${ESC}22m │`,
        ...THREES.map(([id, colour, count]) => `│ ${String(id).padEnd(2)} │ ${colour.padEnd(6)} │ ${String(count).padEnd(5)} │`),
        '└────┴────────┴───────┘',
        `${ESC}2mpage 1 of 1 · 6 records · source: local${ESC}22m`,
        '',
      ].join('\n'),
    );
    const plain = await runCli(['example', 'items', '3 with', '--no-color'], { tty: true });
    expect(plain.stdout).not.toContain(ESC);
    const noColor = await runCli(['example', 'items', '3 with'], { tty: true, env: { NO_COLOR: '1' } });
    expect(noColor.stdout).not.toContain(ESC);
    expect(noColor.stdout.split('\n').at(-2)).toBe('page 1 of 1 · 6 records · source: local');
  });

  it('ndjson: one record a line; csv with --fields', async () => {
    const nd = await runCli(['example', 'items', '3 with', '--format', 'ndjson']);
    expect(nd.stdout.trim().split('\n').map((l) => JSON.parse(l).id)).toEqual(THREES.map(([id]) => id));
    const csv = await runCli(['example', 'items', '3 with', '--format', 'csv', '--fields', 'id,colour']);
    expect(csv.stdout.split('\r\n').slice(0, 4)).toEqual(['id,colour', '3,red', '13,green', '23,blue']);
  });

  it('--fields projects records inside the envelope', async () => {
    const r = json(await runCli(['example', 'items', '3 with', '--fields', 'id']));
    expect(r.data).toEqual(THREES.map(([id]) => ({ id })));
    expect(r.meta).toEqual(META);
  });
});

describe('errors and exit codes', () => {
  it('usage errors: one line in the error envelope, exit 2', async () => {
    const r = await runCli(['example', 'calculate', '30', '--bogus']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe(
      '{"error":{"code":"usage_error","message":"unknown option \'--bogus\'","documentation_url":"https://docs.govdata.dev/errors/usage_error"}}\n',
    );
    const t = await runCli(['example', 'nonsense'], { tty: true, env: { NO_COLOR: '1' } });
    expect(t.code).toBe(2);
    expect(t.stderr).toBe("error usage_error: unknown command 'nonsense'\n");
    expect(t.stdout).toBe('');
  });

  it('validation errors use the spec codes and exit 2 (400) or 1 (404)', async () => {
    const colour = await runCli(['example', 'items', '--colour', 'purple']);
    expect([colour.code, json(colour).error.code]).toEqual([2, 'invalid_parameter']);
    const missing = await runCli(['example', 'show', '61']);
    expect([missing.code, json(missing).error.code]).toEqual([1, 'not_found']);
    const bad = await runCli(['api', 'POST', '/v1/example/calculate', '--data', '{nope']);
    expect([bad.code, json(bad).error.code]).toEqual([2, 'usage_error']);
    const body = await runCli(['example', 'calculate', '30', '--colour', 'purple']);
    expect([body.code, json(body).error.code]).toEqual([2, 'bad_request']); // a body field's code (a query's is invalid_parameter)
  });

  it('never prints a stack trace for user errors', async () => {
    for (const args of [['api', 'GET'], ['api', 'PUT', '/v1/example/items'], ['example', 'calculate'], ['example', 'calculate', '--body', '/nonexistent.json']]) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout + r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe('api command', () => {
  it('--list shows every route with its cost', async () => {
    const r = await runCli(['api', '--list'], { tty: true, columns: 1000 }); // wide enough for one line a route
    const lines = r.stdout.trim().split('\n');
    expect(lines.at(-1)).toBe(`${ROUTES.length} routes`);
    expect(lines.find((l) => l.startsWith('POST /v1/example/calculate'))).toMatch(/10 credits\s+local\s+How many example items/);
    expect(lines.find((l) => l.startsWith('GET  /v1/example/items '))).toMatch(/ 1 credit\s+local\s+Search the example items/);
    const piped = JSON.parse((await runCli(['api', '--list'])).stdout);
    expect(piped.data).toHaveLength(ROUTES.length); // issue 9: api --list writes through the renderer registry, JSON is the {data, meta} envelope
  });

  it('prints the envelope of a local call, -F typed fields and query strings', async () => {
    const a = json(await runCli(['api', 'GET', '/v1/example/items?colour=red&per_page=100']));
    // ids divisible by 3: 20 of them
    expect(a.data).toHaveLength(20);
    expect(new Set(a.data.map((i: { colour: string }) => i.colour))).toEqual(new Set(['red']));
    const b = json(await runCli(['api', 'GET', 'example/items', '-F', 'colour=blue']));
    // the first blue item: id 2 (2 % 3 = 2), count 14, at 51.02, -0.98
    expect(b.data[0]).toEqual({ id: 2, title: 'Example item number 2 with a title long enough to be cut at eighty columns', colour: 'blue', count: 14, markers: {}, location: { latitude: 51.02, longitude: -0.98 } });
  });
});

describe('batch', () => {
  it('one envelope per line in order; bad lines get their error and the batch goes on', async () => {
    const input = ['{"amount":30}', 'not json', '{"amount":"x"}', '', '{"amount":50,"colour":"purple"}', '{"amount":20}'].join('\n');
    const r = await runCli(['example', 'calculate', '--batch'], { stdin: input });
    const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(out).toHaveLength(5);
    expect(out.map((e) => e.data?.amount ?? e.error.code)).toEqual([30, 'bad_request', 'bad_request', 'bad_request', 20]);
    expect(out[1].error.message).toBe('Line 2: not valid JSON.');
    expect(out[3].error.message).toMatch(/^Invalid field 'colour'/);
    // up to 20: ids 1 and 2, 7 + 14
    expect(out[4].data).toMatchObject({ item_count: 2, total_count: 21 });
    expect(r.code).toBe(2);
  });

  it('flags give defaults that each line may override; exit 0 when every line succeeds', async () => {
    const r = await runCli(['example', 'calculate', '--batch', '--colour', 'red'], { stdin: '{"amount":40}\n{"amount":40,"colour":"green"}\n' });
    expect(r.code).toBe(0);
    const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l).data);
    // up to 40, red (ids 3 x k): id 3 (21); green (ids 1, 4, ...): ids 1 and 4 (7 + 28)
    expect(out.map((d: { colour: string; total_count: number }) => [d.colour, d.total_count])).toEqual([['red', 21], ['green', 35]]);
  });
});

describe('help', () => {
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
    expect(bash.stdout).toContain('"example") words="items show summary records events notes calculate');
    const fish = await runCli(['completion', 'fish']);
    expect(fish.stdout).toContain("complete -c publicdata -n '__fish_seen_subcommand_from example' -a calculate");
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
    expect(root).toContain('example');
    // every dataset of the registry (price-paid, hpi, bank-holidays... when the real domains are registered)
    expect(complete('sync', '')).toEqual(expect.arrayContaining([...DATASETS.map((d) => d.name), '--all']));
    expect(complete('example', 'calculate', '--format', '')).toEqual(['table', 'json', 'ndjson', 'csv']);
    expect(complete('example', 'calculate', '--format', 'nd')).toEqual(['ndjson']);
    expect(complete('example', 'items', '--colour', '')).toEqual(['red', 'green', 'blue']);
    expect(complete('--source', '')).toEqual(['auto', 'live', 'local']);
  });

  it('zsh completion starts with #compdef; fish completes --format values', async () => {
    expect((await runCli(['completion', 'zsh'])).stdout.split('\n')[0]).toBe('#compdef publicdata');
    expect((await runCli(['completion', 'fish'])).stdout).toContain("-l format -xa 'table json ndjson csv'");
  });

  it('leaf --help lists the inherited global options; -v alone prints the version', async () => {
    const h = await runCli(['example', 'calculate', '--help']);
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
    const r = await runCli(['example', 'items', '--no-color'], { tty: true, columns: 50 });
    const widths = r.stdout.split('\n').map((l) => [...l].length);
    expect(Math.max(...widths)).toBeLessThanOrEqual(50);
    // the 77-character titles are cut, not wrapped past the edge
    expect(r.stdout).toContain('…');
  });
});
