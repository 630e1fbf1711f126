/**
 * Issue 37, tables at 80 columns, the commands' own output: test/cli/tables-80.test.ts renders the route
 * samples through `api`; this file runs every example every command declares in its --help (walked from the
 * program, so a new command is covered without a line here; an example declared twice, by a group and its
 * command, runs once), in process on the fixture mirror of every domain and the example domain's two
 * datasets, as a terminal 80 columns wide (the ones that need a file, a pipe, the network or a key are left
 * out: sync, serve, auth, completion, help). Every example answers (exit 0) with no line over 80 on stdout
 * or stderr, except:
 * - the ones the fixture mirror cannot answer (a real company number, a region or year the fixtures do not
 *   hold). Each domain declares its own in test/<domain>/samples.ts `unansweredExamples` (gathered like its
 *   route samples, test/support/route-samples.ts), with the exit code, the error code and why; each fails
 *   exactly so (test/support/commands-80.ts `failsAs`), and a declaration that is no example, or another
 *   domain's command, fails. Declared beside the domain's fixtures, which decide what it can answer, so
 *   this shared file names no domain, and a new domain's examples are held to answer until it says why not.
 * - one with `--source live`: the fixture has no API key, so it answers exit 4, `unauthorized` (a rule on
 *   the flag, not a list).
 * Then the answers of no domain with a renderer of their own (`mirror status`, `api --list`: the cases must
 * be the renderers src/output/command-renderers.ts registers), and the test-only example domain's. Each
 * domain's own answers, at their longest and with their figures checked whole:
 * test/<domain>/commands-80.test.ts (test/support/commands-80.ts).
 */
import { join } from 'node:path';
import { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { createContext } from '../../src/create-context.js';
import { at80, failsAs, fits, rendererCases } from '../support/commands-80.js';
import { samples as exampleSamples } from '../support/example-domain/samples.js';
import { DOMAIN_SAMPLES, useFixtureMirror } from '../support/route-samples.js';
import { DATASETS, datasetByName, matchRoute } from '../../src/registry.js';
import type { HttpMethod } from '../../src/contract/types.js';
import type { UnansweredExample } from '../support/samples-types.js';

const fx = useFixtureMirror('commands-80-');
// the example domain's two mirror datasets beside the real domains' (its samples' build), so its
// `records` and `events` examples answer
beforeAll(async () => {
  await exampleSamples.build!({ dataDir: fx.dir(), mirror: join(fx.dir(), 'mirror'), cacheDir: join(fx.dir(), 'example-cache') });
});

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

/** Every command's declared examples, as argv (without `publicdata`), with the command's path; each once. */
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
        if (!out.some((e) => e.argv.join(' ') === argv.join(' '))) out.push({ command: p, argv });
      }
      walk(sub, p);
    }
  };
  walk(program, '');
  return out;
}

const EXAMPLES = await examples();

/** The examples each domain's fixtures cannot answer (test/<domain>/samples.ts), by their words, with the domain. */
const UNANSWERED = new Map<string, UnansweredExample & { domain: string }>(
  [...DOMAIN_SAMPLES].flatMap(([domain, s]) => Object.entries(s.unansweredExamples ?? {}).map(([words, u]) => [words, { ...u, domain }] as const)),
);
/**
 * An example of the CLI's own groups (`api`, `mirror`, `sql`) that names a route or dataset this build does
 * not register: in check:domains' copies without some domains, nothing to run it on.
 */
function forAbsentDomain(argv: readonly string[]): boolean {
  const path = argv.find((a) => a.startsWith('/v1/'));
  if (argv[0] === 'api' && path) {
    try {
      matchRoute(argv[1] as HttpMethod, path.split('?')[0]!);
      return false;
    } catch {
      return true;
    }
  }
  if (argv[0] === 'mirror' && argv[2] !== undefined && !argv[2].startsWith('-')) return datasetByName(argv[2]) === undefined;
  if (argv[0] === 'sql') return [...argv.slice(1).join(' ').matchAll(/\b([a-z_]+)\.[a-z_]+\b/g)].some((m) => !DATASETS.some((d) => d.schema === m[1]));
  return false;
}

/** An example that asks the live API: the fixture has no key. */
const LIVE_ONLY: UnansweredExample = { code: 4, error: 'unauthorized', why: 'a --source live call needs an API key; the fixture has none' };

describe('every command example at 80 columns', () => {
  it('the examples are found (the example domain\'s and the CLI\'s own)', () => {
    expect(EXAMPLES.map((e) => e.argv.slice(0, 2).join(' '))).toEqual(expect.arrayContaining(['example items', 'example summary', 'example records', 'api --list']));
  });

  it('each example a domain declares unanswered is one of its own commands\' examples', () => {
    const words = new Set(EXAMPLES.map((e) => e.argv.join(' ')));
    const stray = [...UNANSWERED].filter(([w, u]) => !words.has(w) || w.split(' ')[0] !== u.domain).map(([w, u]) => `${u.domain}: ${w}`);
    expect(stray).toEqual([]);
  });

  // every example, but in check:domains' copies without some domains (it says which: scripts/check-domains.mjs)
  // those of the CLI's own groups naming a route or dataset the copy lacks; in a normal run a broken
  // example (a renamed route, a misspelled dataset) runs and fails
  const removed = process.env.PUBLICDATA_CHECK_DOMAINS_REMOVED;
  for (const { command, argv } of EXAMPLES.filter((e) => !removed || !forAbsentDomain(e.argv))) {
    const unanswered = UNANSWERED.get(argv.join(' ')) ?? (argv.includes('--source') && argv[argv.indexOf('--source') + 1] === 'live' ? LIVE_ONLY : undefined);
    it(`${command}: ${argv.join(' ')}${unanswered ? ` (fails on the fixture: ${unanswered.why})` : ''}`, async () => {
      const r = await at80(fx, argv);
      if (unanswered) failsAs(r, unanswered);
      else {
        expect(r.code, r.stderr).toBe(0);
        fits(r);
      }
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
