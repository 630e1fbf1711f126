/**
 * The write side's guards: one sync per dataset at a time (a lock file holding the pid; a dead process's
 * lock is taken over), removal of a dead process's temp files, fsync before and after the swap.
 */
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onFatalExit, onInterrupt } from '../src/fatal.js';
import { pidAlive } from '../src/pid.js';

export class SyncError extends Error {
  constructor(message: string, readonly dataset: string) {
    super(message);
    this.name = 'SyncError';
  }
}

/** Remove `<file>.new-<pid>` (+ .wal, .tmp) left by dead processes. Returns the names removed. */
export function cleanStaleTemps(mirrorDir: string, file: string): string[] {
  if (!existsSync(mirrorDir)) return [];
  const removed: string[] = [];
  const re = new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.new-(\\d+)(\\.wal|\\.tmp)?$`);
  for (const entry of readdirSync(mirrorDir)) {
    const m = re.exec(entry);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid !== process.pid && pidAlive(pid)) continue;
    rmSync(join(mirrorDir, entry), { recursive: true, force: true });
    removed.push(entry);
  }
  return removed;
}

/** A per-dataset lock file holding the pid; a lock of a dead process is taken over. */
export function acquireLock(mirrorDir: string, file: string, dataset: string): () => void {
  const lock = join(mirrorDir, `${file}.sync-lock`);
  for (let i = 0; i < 2; i++) {
    try {
      const fd = openSync(lock, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      // Released on the normal path, and by the last-resort handler if the process crashes mid-sync.
      const unregister = onFatalExit(() => rmSync(lock, { force: true }));
      // Stopped by a signal (Ctrl-C, a scheduler's SIGTERM): one line says what became of the data.
      const unnote = onInterrupt(
        (signal) => `publicdata sync ${dataset}: stopped by ${signal}; the mirror keeps the data it had before this sync (a partial download resumes on the next sync)`,
      );
      return () => {
        unregister();
        unnote();
        rmSync(lock, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(readFileSync(lock, 'utf8').trim());
      if (pid !== process.pid && pidAlive(pid)) {
        throw new SyncError(`another sync of ${dataset} is running (pid ${pid})`, dataset);
      }
      rmSync(lock, { force: true });
    }
  }
  throw new SyncError(`could not take the sync lock ${lock}`, dataset);
}

export function fsyncPath(path: string): void {
  try {
    const fd = openSync(path, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* best effort (directories on some platforms) */
  }
}
