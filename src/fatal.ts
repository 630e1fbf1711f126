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

const interruptNotes = new Set<(signal: string) => string>();

/**
 * Register what to say if the process is stopped by SIGINT or SIGTERM while `note` is registered (a sync:
 * which dataset stopped and that its previous data still answers); the returned function unregisters it.
 */
export function onInterrupt(note: (signal: string) => string): () => void {
  interruptNotes.add(note);
  return () => void interruptNotes.delete(note);
}

/** The lines registered with onInterrupt, for `signal`. */
export function interruptLines(signal: string): string[] {
  return [...interruptNotes].map((n) => n(signal));
}
