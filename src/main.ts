/** Process entry: run the CLI with the real context and set the exit code (never a stack trace). */
import { reportInternalError, run } from './cli.js';
import type { Context } from './context.js';
import { createContext } from './create-context.js';
import { interruptLines, lingerLimit, runFatalHooks } from './fatal.js';
import { terminalColumns } from './io.js';

const argv = process.argv.slice(2);
const ctx = processContext();

process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0); // `publicdata ... | head`
});

// Last resort: an exception thrown from an event handler (a dependency's socket callback, a timer) or a
// rejected promise nobody awaited. Release what a killed process would leave locked, say it in one line
// and exit 1: the same as an internal error caught by `run`.
let dying = false;
const lastResort = (e: unknown) => {
  if (dying) return;
  dying = true;
  runFatalHooks();
  process.exitCode = reportInternalError(ctx, e, argv);
  process.exit();
};
process.on('uncaughtException', lastResort);
process.on('unhandledRejection', lastResort);

// SIGINT/SIGTERM: what the default would do (exit 130/143 at once), after the fatal hooks (a sync's lock)
// and the lines registered for it (a sync says which dataset stopped and that its data is kept). A
// command with its own handler (serve: finish requests in flight) is left to it.
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  process.on(signal, () => {
    if (process.listenerCount(signal) > 1 || dying) return;
    dying = true;
    const lines = interruptLines(signal);
    runFatalHooks();
    if (lines.length) process.stderr.write(`${lines.join('\n')}\n`);
    process.exit(code);
  });
}

void run(argv, ctx).then((code) => {
  process.exitCode = code;
  const linger = lingerLimit();
  if (linger !== undefined) setTimeout(() => process.exit(), linger).unref();
});

/** The real process context. */
function processContext(): Context {
  return createContext({
    io: {
      stdout: process.stdout,
      stderr: process.stderr,
      // Read on first use: process.stdin builds a stream (for a file: fs streams, fs/promises, readline;
      // for a pipe: net) that only --batch, --body - and a few others need; seven fewer built-in modules at start.
      get stdin() {
        return process.stdin;
      },
      stdoutIsTTY: Boolean(process.stdout.isTTY),
      stderrIsTTY: Boolean(process.stderr.isTTY),
      columns: terminalColumns(process.stdout.columns, process.env.COLUMNS),
    },
    env: process.env,
    now: () => new Date(),
  });
}
