/** Process entry: run the CLI with the real context and set the exit code (never a stack trace). */
import { reportInternalError, run } from './cli.js';
import type { Context } from './context.js';
import { createContext } from './create-context.js';
import { interruptLines, lingerLimit, runFatalHooks } from './fatal.js';
import { fdOut, isPipeOrFile, terminalColumns } from './io.js';

// `publicdata ... | head`: the reader has gone, stop quietly
const onEpipe = () => process.exit(process.exitCode ?? 0);
const stdoutStream = () => process.stdout.on('error', (e: NodeJS.ErrnoException) => void (e.code === 'EPIPE' && onEpipe()));

const argv = process.argv.slice(2);
const ctx = processContext();


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
  // A pipe or file gets its bytes straight from fdOut: Node's stream for a pipe (net and the stream modules)
  // is built only if a write cannot complete at once; a terminal keeps its stream (width, colour).
  const outPlain = isPipeOrFile(1);
  const errPlain = isPipeOrFile(2);
  return createContext({
    io: {
      stdout: outPlain ? fdOut(1, stdoutStream, onEpipe) : stdoutStream(),
      stderr: errPlain ? fdOut(2, () => process.stderr, () => {}) : process.stderr,
      // Read on first use: process.stdin builds a stream (for a file: fs streams, fs/promises, readline;
      // for a pipe: net) that only --batch, --body - and a few others need; seven fewer built-in modules at start.
      get stdin() {
        return process.stdin;
      },
      stdoutIsTTY: !outPlain && Boolean(process.stdout.isTTY),
      stderrIsTTY: !errPlain && Boolean(process.stderr.isTTY),
      columns: terminalColumns(outPlain ? undefined : process.stdout.columns, process.env.COLUMNS),
    },
    env: process.env,
    now: () => new Date(),
  });
}
