/**
 * Clean-ups that must run even when the process dies of an uncaught exception or an unhandled rejection
 * (src/main.ts installs the last-resort handler that calls `runFatalHooks`). A sync registers the release
 * of its lock here, so a crash leaves what a SIGKILL leaves minus the lock: the live file untouched, a
 * `<file>.new-<pid>` the next sync removes, a `.part` it resumes. Hooks must be synchronous and quick.
 */
const hooks = new Set<() => void>();

/** Register `fn`; the returned function unregisters it (call it on the normal path). */
export function onFatalExit(fn: () => void): () => void {
  hooks.add(fn);
  return () => void hooks.delete(fn);
}

/** Run every registered hook once (errors in a hook are ignored: the process is dying anyway). */
export function runFatalHooks(): void {
  const list = [...hooks];
  hooks.clear();
  for (const h of list) {
    try {
      h();
    } catch {
      /* keep going */
    }
  }
}

let lingerMs: number | undefined;
/**
 * Ask the process entry (src/main.ts) to exit at most `ms` after the command has returned, whatever work
 * is still pending: `serve` after its shutdown, where a DuckDB query of an abandoned request may still
 * be running (it cannot be cancelled safely and its answer has nobody to go to). In process (tests)
 * nothing reads it.
 */
export function exitWithinAfterReturn(ms: number): void {
  lingerMs = ms;
}

export function lingerLimit(): number | undefined {
  return lingerMs;
}
