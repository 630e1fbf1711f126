/** Process entry: run the CLI with the real context and set the exit code (never a stack trace). */
import { run } from './cli.js';
import { createContext, type Context } from './context.js';

process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0); // `publicdata ... | head`
});

void run(process.argv.slice(2), processContext()).then((code) => {
  process.exitCode = code;
});

/** The real process context. */
function processContext(): Context {
  return createContext({
    io: {
      stdout: process.stdout,
      stderr: process.stderr,
      stdin: process.stdin,
      stdoutIsTTY: Boolean(process.stdout.isTTY),
      stderrIsTTY: Boolean(process.stderr.isTTY),
      columns: process.stdout.columns || 100,
    },
    env: process.env,
    now: () => new Date(),
  });
}
