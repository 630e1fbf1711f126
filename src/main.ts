/** Process entry: run the CLI with the real context and set the exit code (never a stack trace). */
import { run } from './cli.js';
import { processContext } from './context.js';

process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0); // `publicdata ... | head`
});

void run(process.argv.slice(2), processContext()).then((code) => {
  process.exitCode = code;
});
