/**
 * `publicdata serve`: the v1 API over HTTP from the local handlers (src/server/). Loopback by default;
 * a non-loopback --host needs --keys. Runs until SIGINT/SIGTERM, then finishes requests in flight and
 * writes the credit state. SIGHUP re-reads the keys file and writes the credit state, and keeps serving
 * (unless the terminal that started serve has gone: then it stops as on SIGTERM). docs/serve.md.
 */
import { Command, InvalidArgumentError } from 'commander';
import { EventEmitter } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ApiError, EXIT, errorEnvelope } from '../src/contract/errors.js';
import type { Context } from '../src/context.js';
import { errorLine } from '../src/output/render.js';
import type { RunningServer } from '../src/server/server.js';
import { helpWithExamples, setExit } from './route-command.js';

/** After shutdown, the process exits at most this long after `serve` returns (see exitWithinAfterReturn). */
const EXIT_LINGER_MS = 1000;
/** Requests in flight at SIGINT/SIGTERM get this long to finish; then their connections are closed. */
const SHUTDOWN_GRACE_MS = 10_000;

export interface ServeCommandOptions {
  host: string;
  port: number;
  keys?: string;
  state?: string;
  cors?: string;
  open?: boolean;
  quiet?: boolean;
}

function port(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) > 65535) throw new InvalidArgumentError('--port takes a port number (0-65535; 0 picks a free one).');
  return Number(v);
}

function corsOrigin(v: string): string {
  if (v === '*') return v;
  try {
    const u = new URL(v);
    if ((u.protocol === 'http:' || u.protocol === 'https:') && u.origin === v.replace(/\/$/, '')) return u.origin;
  } catch {
    /* fall through */
  }
  throw new InvalidArgumentError("--cors takes an origin such as https://dash.example.org (scheme://host[:port], no path), or '*'.");
}

/** Open a URL in the desktop browser; failures only print a hint. */
async function openBrowser(ctx: Context, url: string): Promise<void> {
  const { spawn } = await import('node:child_process');
  const [cmd, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(cmd as string, args as string[], { detached: true, stdio: 'ignore' });
    child.on('error', () => ctx.io.stderr.write(`  (could not open a browser; visit ${url})\n`));
    child.unref();
  } catch {
    ctx.io.stderr.write(`  (could not open a browser; visit ${url})\n`);
  }
}

/**
 * Start the server and run until `stop` resolves. Returns the exit code. Errors before listening
 * (bad keys file, refused host, port in use) are one line in the error format.
 */
/** Where SIGHUP is announced (a 'reload' event); the command passes one fed by process.on('SIGHUP'). */
export type ReloadSignal = Pick<EventEmitter, 'on' | 'off'>;

/**
 * Whether the terminal serve was started from has hung up (the SIGHUP a closed terminal sends): stderr
 * is a terminal and the process no longer has one to open. Then SIGHUP stops serve, as SIGTERM does.
 */
function terminalGone(): boolean {
  if (!process.stderr.isTTY) return false;
  try {
    closeSync(openSync('/dev/tty', 'r'));
    return false;
  } catch {
    return true;
  }
}

export async function runServe(ctx: Context, o: ServeCommandOptions, stop: Promise<string>, hup?: ReloadSignal): Promise<number> {
  const fail = (code: string, message: string, exit: number = EXIT.USAGE): number => {
    ctx.io.stderr.write(errorLine(errorEnvelope(code, message), false));
    return exit;
  };
  const { isLoopback, startServer } = await import('../src/server/server.js');
  if (!isLoopback(o.host) && !o.keys) {
    return fail(
      'usage_error',
      `Refusing to serve on ${o.host} without --keys: anyone who can reach that address could use the API with no authentication or limits. Add --keys FILE, or leave --host at 127.0.0.1.`,
    );
  }
  const { dataDir, mirrorDir, isDatasetPresent } = await import('../src/mirror/paths.js');
  let keys: import('../src/server/keys.js').KeyPlan[] | undefined;
  let stateFile: string | undefined;
  if (o.keys) {
    const { readKeysFile, KeysFileError } = await import('../src/server/keys.js');
    try {
      keys = readKeysFile(o.keys, (line) => void ctx.io.stderr.write(`${line}\n`));
    } catch (e) {
      if (e instanceof KeysFileError) return fail('usage_error', e.message);
      throw e;
    }
    stateFile = resolve(o.state ?? join(dataDir(ctx.env), 'serve', 'credits.json'));
  }
  const { execute } = await import('../src/execute.js');
  const debug = ctx.env.PUBLICDATA_DEBUG === '1';
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({
      host: o.host,
      port: o.port,
      ...(keys ? { keys, stateFile: stateFile! } : {}),
      ...(o.cors ? { cors: o.cors } : {}),
      // The one execution path, local backend; the server has matched and validated the call already.
      execute: (call) => execute(call, ctx, { source: 'local', verbose: false }, call.prepared),
      ...(o.quiet ? {} : { accessLog: (line: string) => void ctx.io.stderr.write(`${line}\n`) }),
      errorLog: (line: string) => void ctx.io.stderr.write(`${line}\n`),
      now: () => ctx.now().getTime(),
      debug,
    });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE') return fail('usage_error', `Port ${o.port} on ${o.host} is already in use; choose another with --port (0 picks a free one).`);
    if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND' || err.code === 'EACCES')
      return fail('usage_error', `Cannot listen on ${o.host}:${o.port} (${err.code}).`);
    if (err.name === 'CreditStateError') return fail('usage_error', err.message, EXIT.ERROR);
    throw e;
  }
  const { DATASETS } = await import('../src/registry.js');
  const dir = mirrorDir(ctx.env);
  const names = DATASETS.map((d) => d.name);
  const synced = DATASETS.filter((d) => isDatasetPresent(d, dir)).map((d) => d.name);
  const lines = [
    `publicdata serve: the v1 API at ${server.url}`,
    `  OpenAPI document: ${server.url}/openapi.json`,
    `  pages: ${server.url.replace(/\/v1$/, '')}/ (API reference, try it), /area/{postcode} (area profile)`,
    `  mirror ${dir}: ${synced.length ? `synced ${synced.join(', ')}` : 'nothing synced yet'}${synced.length < names.length ? ` (others answer 503 dataset_not_synced until 'publicdata sync')` : ''}`,
    keys
      ? `  ${keys.length} key(s) from ${o.keys}: Bearer auth, per-key rate limits and credits (state ${stateFile})`
      : '  single-user mode: no authentication, no rate limit, no credit accounting (--keys FILE to require keys)',
    ...(o.cors ? [`  CORS allowed for ${o.cors}`] : []),
    `  ${o.quiet ? 'access log off (--quiet)' : 'access log on stderr (--quiet to silence)'}; Ctrl-C stops after requests in flight`,
  ];
  ctx.io.stderr.write(`${lines.join('\n')}\n`);
  if (o.open) await openBrowser(ctx, `${server.url.replace(/\/v1$/, '')}/`);
  // SIGHUP: one reload at a time, in order; shutdown waits for the one under way.
  let reloading = Promise.resolve();
  let keyCount = keys?.length ?? 0;
  const onReload = () => void (reloading = reloading.then(async () => void (keyCount = await reloadOnHup(ctx, o, server, keyCount))));
  hup?.on('reload', onReload);
  const signal = await stop;
  hup?.off('reload', onReload);
  await reloading;
  ctx.io.stderr.write(`${signal}: finishing ${server.inflight()} request(s) in flight (at most ${SHUTDOWN_GRACE_MS / 1000} s), then stopping\n`);
  // A credit state that cannot be written is reported (the charges since its last write are lost) and
  // the exit code says so; the shutdown itself goes on.
  let creditError: Error | undefined;
  const credit = (e: unknown) => {
    if ((e as Error)?.name !== 'CreditStateError') throw e;
    creditError = e as Error;
  };
  await server.close(SHUTDOWN_GRACE_MS).catch(credit);
  const { exitWithinAfterReturn } = await import('../src/fatal.js');
  const running = server.executing();
  if (running === 0) {
    const { closeAll } = await import('../src/mirror/db.js');
    await closeAll();
  } else {
    // Queries of requests already answered or abandoned: DuckDB cannot cancel them safely, and closing a
    // busy read-only file is not needed. The process exits without waiting for them (src/main.ts).
    ctx.io.stderr.write(`leaving ${running} abandoned quer${running === 1 ? 'y' : 'ies'} unfinished\n`);
  }
  // Refunds made after `close` wrote the credit state (a handler that settled late) are written now.
  await server.flush().catch(credit);
  exitWithinAfterReturn(EXIT_LINGER_MS);
  if (creditError) {
    ctx.io.stderr.write(errorLine(errorEnvelope('internal_error', creditError.message), false));
    return EXIT.ERROR;
  }
  ctx.io.stderr.write('stopped\n');
  return EXIT.OK;
}

/**
 * SIGHUP: re-read the keys file (a key no longer listed is refused from the next request on; a file that
 * cannot be read or parsed leaves the keys as they were) and write the credit state now. Returns the
 * number of keys now in force (0 in single-user mode).
 */
async function reloadOnHup(ctx: Context, o: ServeCommandOptions, server: Pick<RunningServer, 'reloadKeys' | 'flush'>, before: number): Promise<number> {
  const say = (line: string) => void ctx.io.stderr.write(`${line}\n`);
  if (!o.keys) {
    say('SIGHUP: single-user mode, no keys file to reload; still serving');
    return 0;
  }
  let now = before;
  let reloaded = false;
  try {
    const { readKeysFile } = await import('../src/server/keys.js');
    const plans = readKeysFile(o.keys, say);
    server.reloadKeys(plans);
    now = plans.length;
    reloaded = true;
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    ctx.io.stderr.write(errorLine(errorEnvelope('usage_error', `SIGHUP: the keys file was not reloaded (${why}); the ${before} key(s) loaded before still apply.`), false));
  }
  try {
    await server.flush();
  } catch (e) {
    ctx.io.stderr.write(errorLine(errorEnvelope('internal_error', `SIGHUP: ${(e as Error).message}`), false));
  }
  // Said once the credit state is written, so the line means both are done.
  if (reloaded) say(`SIGHUP: reloaded ${now} key(s) from ${o.keys} (${before} before); still serving`);
  return now;
}

export function registerServe(program: Command, ctx: Context): void {
  program
    .command('serve')
    .summary('answer the v1 API over HTTP from the local mirror and calculators')
    .description(
      helpWithExamples(
        'Serve the v1 API over HTTP from the local handlers: the same status and envelope as `publicdata api ... --source local`. ' +
          'Without --keys: single-user mode (no authentication, no limits). With --keys: Bearer keys, per-minute rate limits and credits (GET 1, POST 10). ' +
          'SIGHUP re-reads the keys file and writes the credit state; SIGINT/SIGTERM stop after the requests in flight.',
        [
          'publicdata serve',
          'publicdata serve --port 9000 --keys keys.txt',
          'PUBLICDATA_BASE_URL=http://127.0.0.1:8080/v1 publicdata tax years --source live',
        ],
      ),
    )
    .option('--host <host>', 'address to listen on (a non-loopback address needs --keys)', '127.0.0.1')
    .option('--port <port>', 'port (0 picks a free one)', port, 8080)
    .option('--keys <file>', 'keys file: one key per line, or one JSON object per line with kind, per_minute, monthly_credits, credits')
    .option('--state <file>', 'credit balances file (default: <data dir>/serve/credits.json)')
    .option('--cors <origin>', "allow browser calls from this origin ('*' for any); off by default", corsOrigin)
    .option('--open', 'open the API reference page (/) in a browser')
    .action(async (opts: Record<string, unknown>, self: Command) => {
      const g = self.optsWithGlobals() as { quiet?: boolean };
      const hup = new EventEmitter();
      let onHup: () => void = () => undefined;
      const stop = new Promise<string>((resolve) => {
        const on = (sig: string) => () => resolve(sig);
        process.once('SIGINT', on('SIGINT'));
        process.once('SIGTERM', on('SIGTERM'));
        // Without a listener SIGHUP would end the process at once, with no final credit write.
        onHup = () => (terminalGone() ? resolve('SIGHUP') : hup.emit('reload'));
        process.on('SIGHUP', onHup);
      });
      try {
        setExit(self, await runServe(ctx, { ...(opts as unknown as ServeCommandOptions), quiet: Boolean(g.quiet) }, stop, hup));
      } catch (e) {
        if (e instanceof ApiError) {
          ctx.io.stderr.write(errorLine(e.toEnvelope(), false));
          return setExit(self, EXIT.USAGE);
        }
        throw e;
      } finally {
        process.off('SIGHUP', onHup);
      }
    });
}
