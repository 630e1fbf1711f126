/** auth, completion, help topics. */
import { Command } from 'commander';
import { ApiError, ERROR_CODES, EXIT_CODE_DOCS } from '../src/contract/errors.js';
import type { Context } from '../src/context.js';
import { printError, resultExit } from '../src/invoke.js';
import { globalOptions } from './global.js';
import { COMPLETION_VALUES, helpWithExamples, setExit } from './route-command.js';
import { FORMATS } from '../src/output/render.js';

const HELP_TOPICS: Record<string, () => string> = {
  'exit-codes': () =>
    [
      'Exit codes (the same whichever backend answered):',
      ...EXIT_CODE_DOCS.map(([c, d]) => `  ${c}  ${d}`),
      '',
      'Error codes (error.code in the envelope):',
      ...Object.entries(ERROR_CODES).map(([c, i]) => `  ${c.padEnd(30)} ${String(i.status).padEnd(4)} ${i.when}`),
      '',
    ].join('\n'),
  formats: () =>
    [
      'Output formats (--format):',
      '  table   default on a terminal: a table and a footer (page, records, source, credits)',
      '  json    default when piped: the API envelope exactly ({data, meta, pagination} or {error})',
      '  ndjson  one record per line (across pages with --all); batch mode: one envelope per line',
      '  csv     RFC 4180, nested fields flattened to dotted columns',
      '--fields a,b.c picks fields (records, or the answer\'s own fields); an unknown field is a usage error.',
      '--wide: tables show every column (by default the columns that fit, identifiers kept whole).',
      'Errors: json/ndjson print the envelope on stdout and the message on stderr (not with --quiet);',
      '  csv prints the message on stderr only; table on stderr.',
      'Colour only on a terminal (NO_COLOR, FORCE_COLOR, --no-color).',
      '',
    ].join('\n'),
  environment: () =>
    [
      'Environment variables:',
      '  PUBLICDATA_API_KEY        API key for live calls (else the one saved by `publicdata auth login`)',
      '  PUBLICDATA_BASE_URL       API base URL (default https://api.govdata.dev/v1)',
      '  PUBLICDATA_SOURCE         auto | live | local (default auto)',
      '  PUBLICDATA_CONFIG_DIR     where the saved key lives (default: XDG config dir/publicdata)',
      '  PUBLICDATA_DATA_DIR       where the mirror lives (default: XDG data dir/publicdata)',
      '  PUBLICDATA_CACHE_DIR      where downloads are cached (default: XDG cache dir/publicdata)',
      '  PUBLICDATA_UPSTREAM_BASE  prefix for every upstream dataset URL (tests, proxies)',
      '  PUBLICDATA_UPSTREAM_<DATASET>  base URL of one dataset, e.g. PUBLICDATA_UPSTREAM_PRICE_PAID',
      '  PUBLICDATA_DEBUG=1        stack traces for internal errors',
      '  NO_COLOR, FORCE_COLOR     colour control; CI disables spinners',
      '',
    ].join('\n'),
};

/** The key from stdin or a hidden prompt; undefined when the prompt is interrupted (Ctrl-C). */
async function readSecret(ctx: Context): Promise<string | undefined> {
  const stdin = ctx.io.stdin as NodeJS.ReadStream;
  if (!stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const c of stdin as AsyncIterable<Buffer | string>) chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
    return Buffer.concat(chunks).toString('utf8').trim();
  }
  ctx.io.stderr.write('API key (input hidden): ');
  return new Promise((resolve) => {
    let key = '';
    stdin.setRawMode?.(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    const onData = (ch: string) => {
      for (const c of ch) {
        if (c === '\r' || c === '\n' || c === '\u0004') {
          stdin.setRawMode?.(false);
          stdin.pause();
          stdin.off('data', onData);
          ctx.io.stderr.write('\n');
          resolve(key.trim());
          return;
        }
        if (c === '\u0003') {
          stdin.setRawMode?.(false);
          stdin.pause();
          stdin.off('data', onData);
          ctx.io.stderr.write('\n');
          resolve(undefined);
          return;
        }
        key = c === '\u007f' ? key.slice(0, -1) : key + c;
      }
    };
    stdin.on('data', onData);
  });
}

/** The values an option of one command takes: its own enum or choices (route-command.ts), else commander's. */
function ownValues(cmd: Command): Map<string, readonly string[]> {
  const values = new Map<string, readonly string[]>();
  for (const o of cmd.options) {
    const v = COMPLETION_VALUES.get(o) ?? (o as { argChoices?: string[] }).argChoices;
    if (o.long && v?.length) values.set(o.long, v);
  }
  return values;
}

/** The global options' values: --format takes the output formats (checked by hand, see global.ts). */
function globalValues(program: Command): Map<string, readonly string[]> {
  const values = ownValues(program);
  values.set('--format', FORMATS);
  return values;
}

/** `mirror export --format`: its own formats (parquet, csv), the only place parquet is offered. */
const COMMAND_FORMATS: ReadonlyMap<string, readonly string[]> = new Map([['mirror export', ['parquet', 'csv']]]);

/** Commands whose arguments are dataset names. */
const DATASET_COMMANDS = new Set(['sync', 'mirror status', 'mirror path', 'mirror export']);

export function completionScript(program: Command, shell: string, datasets: readonly string[] = []): string {
  const tree: Array<{ path: string[]; subs: string[]; opts: string[]; values: Map<string, readonly string[]> }> = [];
  const walk = (cmd: Command, path: string[]) => {
    const subs = cmd.commands.map((c) => c.name());
    const opts = cmd.options.map((o) => o.long ?? o.short ?? '').filter(Boolean);
    const values = path.length ? ownValues(cmd) : new Map<string, readonly string[]>();
    const formats = COMMAND_FORMATS.get(path.join(' '));
    if (formats) values.set('--format', formats);
    tree.push({ path, subs, opts, values });
    for (const c of cmd.commands) walk(c, [...path, c.name()]);
  };
  walk(program, []);
  const globals = program.options.map((o) => o.long).filter(Boolean) as string[];
  const values = globalValues(program);
  // Each path: its subcommands, its own options, the global ones (once), dataset names where they go.
  const words = (t: (typeof tree)[number]) =>
    [...new Set([...t.subs, ...(DATASET_COMMANDS.has(t.path.join(' ')) ? datasets : []), ...t.opts, ...globals])].join(' ');
  if (shell === 'bash' || shell === 'zsh') {
    const cases = tree.map((t) => `    "${t.path.join(' ')}") words="${words(t)}" ;;`).join('\n');
    const reply = (v: readonly string[]) => `COMPREPLY=( $(compgen -W "${v.join(' ')}" -- "$cur") ); return ;;`;
    const valueCases = [...values].map(([flag, v]) => `    ${flag}) ${reply(v)}`).join('\n');
    // A command's own option values (council-tax --band: its bands), keyed by the command path and the flag.
    const ownCases = tree.flatMap((t) => [...t.values].map(([flag, v]) => `    "${t.path.join(' ')} ${flag}") ${reply(v)}`)).join('\n');
    const body = `_publicdata() {
  local cur prev path i w
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  path=""
  for ((i=1; i<COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    case "\${path:+$path }$w" in
${tree.map((t) => `      "${t.path.join(' ')}") path="${t.path.join(' ')}" ;;`).filter((l) => !l.includes('"" ')).join('\n')}
    esac
  done
  case "$path $prev" in
${ownCases}
  esac
  case "$prev" in
${valueCases}
  esac
  local words=""
  case "$path" in
${cases}
  esac
  COMPREPLY=( $(compgen -W "$words" -- "$cur") )
}
complete -F _publicdata publicdata
`;
    if (shell === 'bash') return body;
    // zsh: a file named _publicdata in $fpath (#compdef), or \`source <(publicdata completion zsh)\`.
    // The bash function runs through zsh's bashcompinit; on the first (autoloaded) call complete now.
    return `#compdef publicdata
autoload -U +X bashcompinit && bashcompinit
${body}if [[ \${funcstack[1]-} == _publicdata ]]; then _bash_complete -F _publicdata; fi
`;
  }
  // fish
  const lines = ['complete -c publicdata -f'];
  for (const t of tree) {
    const cond = t.path.length === 0 ? '__fish_use_subcommand' : `__fish_seen_subcommand_from ${t.path[t.path.length - 1]}`;
    for (const s of t.subs) lines.push(`complete -c publicdata -n '${cond}' -a ${s}`);
    if (DATASET_COMMANDS.has(t.path.join(' ')) && datasets.length) lines.push(`complete -c publicdata -n '${cond}' -a '${datasets.join(' ')}'`);
    for (const o of t.opts) {
      const v = t.values.get(o);
      if (o.startsWith('--') && !globals.includes(o)) lines.push(`complete -c publicdata -n '${cond}' -l ${o.slice(2)}${v ? ` -xa '${v.join(' ')}'` : ''}`);
    }
    for (const [o, v] of t.values) if (globals.includes(o)) lines.push(`complete -c publicdata -n '${cond}' -l ${o.slice(2)} -xa '${v.join(' ')}'`);
  }
  for (const g of globals) {
    // Not where a command has its own values for the flag (mirror export --format).
    const own = tree.filter((t) => t.path.length && t.values.has(g)).map((t) => t.path[t.path.length - 1]);
    const cond = own.length ? ` -n 'not __fish_seen_subcommand_from ${own.join(' ')}'` : '';
    lines.push(`complete -c publicdata${cond} -l ${g.slice(2)}${values.has(g) ? ` -xa '${values.get(g)!.join(' ')}'` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

export function registerMeta(program: Command, ctx: Context): void {
  const auth = program
    .command('auth')
    .summary('save, check or remove your API key')
    .description(helpWithExamples('Manage the API key used for live calls (PUBLICDATA_API_KEY takes precedence).', [
      'publicdata auth login            # paste the key at the hidden prompt',
      'printf %s "$KEY" | publicdata auth login',
      'publicdata auth status',
    ]));
  auth
    .command('login')
    .description(helpWithExamples('Read a key from stdin or a hidden prompt (never from arguments) and save it (mode 0600).', ['publicdata auth login', 'printf %s "$KEY" | publicdata auth login']))
    .action(async (_o: unknown, self: Command) => {
      const g = globalOptions(self, ctx);
      const key = await readSecret(ctx);
      if (key === undefined) return setExit(self, 130); // interrupted: the shell's code for SIGINT
      const { saveApiKey, maskKey, keyKind, keyProblem } = await import('../src/config.js');
      try {
        // The same check saveApiKey applies; its message never contains the key.
        const problem = keyProblem(key);
        if (problem) throw new ApiError(400, 'usage_error', `No key saved: ${problem}.`);
        const file = saveApiKey(key, ctx.env);
        ctx.io.stderr.write(`Saved ${keyKind(key)} key ${maskKey(key)} to ${file}\n`);
        setExit(self, 0);
      } catch (e) {
        if (e instanceof ApiError) return setExit(self, await printError(ctx, e, g));
        throw e;
      }
    });
  auth
    .command('status')
    .description(helpWithExamples('Show the masked key, its kind (test or live) and, with one GET (1 credit), the credits left.', ['publicdata auth status', 'publicdata auth status --offline']))
    .option('--offline', 'do not call the API (no credit spent)')
    .action(async (o: { offline?: boolean }, self: Command) => {
      const g = globalOptions(self, ctx);
      const { resolveApiKeySource, maskKey, keyKind, configFileMode } = await import('../src/config.js');
      const found = resolveApiKeySource(ctx.env);
      if (!found) {
        const { missingKey } = await import('../src/create-context.js');
        return setExit(self, await printError(ctx, missingKey(), g));
      }
      const { key } = found;
      const status: Record<string, unknown> = { key: maskKey(key), kind: keyKind(key), from: found.source === 'env' ? 'PUBLICDATA_API_KEY' : found.path };
      if (found.source === 'config') {
        const mode = configFileMode(ctx.env);
        if (mode !== undefined && mode !== 0o600) {
          ctx.io.stderr.write(`warning: ${found.path} has mode ${mode.toString(8)}; it holds your key: chmod 600 it (auth login writes it 0600)\n`);
        }
      }
      let code = 0;
      if (!o.offline) {
        const { execute } = await import('../src/execute.js');
        const r = await execute({ method: 'GET', path: '/v1/calendar/regions', query: {} }, ctx, { source: 'live', verbose: g.verbose, ...(g.maxWait !== undefined ? { maxWait: g.maxWait } : {}) });
        code = resultExit(r);
        status.api = 'error' in r.envelope ? `${r.envelope.error.code}: ${r.envelope.error.message}` : 'ok';
        if (r.credits?.remaining !== undefined) status.credits_remaining = r.credits.remaining;
        if (r.headers?.['x-ratelimit-limit']) status.rate_limit_per_minute = Number(r.headers['x-ratelimit-limit']);
      }
      if (g.format === 'table') ctx.io.stdout.write(Object.entries(status).map(([k, v]) => `${k.padEnd(22)} ${String(v)}`).join('\n') + '\n');
      else ctx.io.stdout.write(`${JSON.stringify(status)}\n`);
      setExit(self, code);
    });
  auth
    .command('logout')
    .description(helpWithExamples('Remove the saved key.', ['publicdata auth logout', 'publicdata auth logout && publicdata auth status --offline']))
    .action(async (_o: unknown, self: Command) => {
      const { removeApiKey } = await import('../src/config.js');
      const removed = removeApiKey(ctx.env);
      ctx.io.stderr.write(removed ? 'Removed the saved key.\n' : 'No saved key.\n');
      setExit(self, 0);
    });

  program
    .command('completion')
    .summary('print a shell completion script')
    .description(helpWithExamples('Print a completion script for bash, zsh or fish.', [
      'publicdata completion bash > /etc/bash_completion.d/publicdata',
      'publicdata completion zsh > "${fpath[1]}/_publicdata"',
      'publicdata completion fish > ~/.config/fish/completions/publicdata.fish',
    ]))
    .argument('<shell>', 'bash, zsh or fish')
    .action(async (shell: string, _o: unknown, self: Command) => {
      if (!['bash', 'zsh', 'fish'].includes(shell)) throw new ApiError(400, 'usage_error', `completion: unknown shell '${shell}' (bash, zsh or fish).`);
      const { syncDatasets } = await import('../src/sync-runner.js');
      ctx.io.stdout.write(completionScript(program, shell, syncDatasets()));
      setExit(self, 0);
    });

  program
    .command('help')
    .summary('help for a command, or a topic: exit-codes, formats, environment')
    .description(helpWithExamples('Help for a command or a topic.', ['publicdata help exit-codes', 'publicdata help tax take-home', 'publicdata help environment']))
    .argument('[topic...]', 'a topic (exit-codes, formats, environment) or a command path')
    .action((topic: string[], _o: unknown, self: Command) => {
      const t = topic.join(' ');
      const fn = HELP_TOPICS[t];
      if (fn) {
        ctx.io.stdout.write(fn());
        return setExit(self, 0);
      }
      let cmd: Command = program;
      for (const word of topic) {
        const next = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
        if (!next) throw new ApiError(400, 'usage_error', `help: no command or topic '${t}'. Topics: ${Object.keys(HELP_TOPICS).join(', ')}.`);
        cmd = next;
      }
      ctx.io.stdout.write(cmd.helpInformation());
      setExit(self, 0);
    });
}
