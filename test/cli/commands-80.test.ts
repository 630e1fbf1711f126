/**
 * Issue 37, tables at 80 columns, the commands' own output: test/cli/tables-80.test.ts renders the route
 * samples through `api`; this file runs every example every command declares in its --help (walked from the
 * program, so a new command is covered without a line here), in process on the fixture mirror of every
 * domain, as a terminal 80 columns wide, and fails on any line over 80 on stdout or stderr where it answers
 * (the ones that need a file, a pipe, the network or a key are left out: sync, serve, auth, completion,
 * help); and the answers of no domain with a renderer of their own (`mirror status`, `api --list`: the
 * cases must be the renderers src/output/command-renderers.ts registers), and the test-only example
 * domain's. Each domain's own answers, at their longest and with their figures checked whole:
 * test/<domain>/commands-80.test.ts (test/support/commands-80.ts).
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { createContext } from '../../src/create-context.js';
import { at80, fits, rendererCases } from '../support/commands-80.js';
import { useFixtureMirror } from '../support/route-samples.js';

const fx = useFixtureMirror('commands-80-');

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

describe('every command example at 80 columns', () => {
  it('the examples are found (the example domain\'s and the CLI\'s own)', () => {
    expect(EXAMPLES.map((e) => e.argv.slice(0, 2).join(' '))).toEqual(expect.arrayContaining(['example items', 'example summary', 'api --list']));
  });

  for (const { command, argv } of EXAMPLES) {
    it(`${command}: ${argv.join(' ')}`, async () => {
      const r = await at80(fx, argv);
      // an example the fixture mirror cannot answer prints its one-line error (not a table)
      if (r.code === 0) fits(r);
    });
  }
});

// the test-only example domain's notes view (test/support/example-domain/)
rendererCases(fx, { 'example.notes': [['example', 'notes']] }, { domain: 'example' });
rendererCases(fx, { 'mirror.status': [['mirror', 'status']], 'api.list': [['api', '--list']] }, 'commands');

describe('api --list at 80 columns', () => {
  it('method, path and cost on a line, where it answers and what under it', async () => {
    const lines = (await at80(fx, ['api', '--list'])).stdout.split('\n');
    const i = lines.findIndex((l) => l.startsWith('POST /v1/example/calculate '));
    expect(lines[i]).toMatch(/ 10 credits$/);
    expect(lines[i + 1]).toMatch(/^ {5}local · How many example items have a count at most amount/);
  });
});
