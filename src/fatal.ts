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
