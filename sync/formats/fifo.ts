/**
 * Hand a stream to a reader that wants a file path (DuckDB's read_csv) without writing the stream to disk:
 * a named pipe (FIFO) in the sync's scratch folder. The postcode directory reads its 2.5 GB national CSV
 * from inside the zip this way (docs/places.md). Where no FIFO can be made (Windows) the stream is written
 * to a scratch file first and removed after.
 *
 * Failure rules: when the writer fails (a corrupt or truncated member), the reader may have seen a short
 * file and answered; the writer's error is thrown, so the load fails and the previous data stays. When the
 * reader fails (or stops reading), the writer is released and the reader's error thrown.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, createWriteStream, mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';

function makeFifo(path: string): boolean {
  if (process.platform === 'win32') return false;
  try {
    rmSync(path, { force: true });
    execFileSync('mkfifo', ['-m', '600', path], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export async function withStreamAsFile<T>(
  workDir: string,
  name: string,
  write: (dest: NodeJS.WritableStream) => Promise<unknown>,
  read: (path: string) => Promise<T>,
): Promise<T> {
  mkdirSync(workDir, { recursive: true });
  const path = join(workDir, `${name}.${process.pid}`);
  if (!makeFifo(path)) {
    try {
      await write(createWriteStream(path));
      return await read(path);
    } finally {
      rmSync(path, { force: true });
    }
  }
  const ws = createWriteStream(path);
  const writing = write(ws).then(() => undefined, (e: unknown) => e);
  let readError: unknown;
  let result: T | undefined;
  try {
    result = await read(path);
  } catch (e) {
    readError = e;
  }
  if (readError) {
    // the reader failed, perhaps before opening the pipe: open the read end ourselves so a writer blocked
    // in open() or on a full pipe is released, then stop it
    try {
      const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
      ws.destroy(new Error('the reader stopped before the end of the stream'));
      closeSync(fd);
    } catch {
      ws.destroy();
    }
  }
  // a reader that read to the end saw end-of-file only once the writer closed its end: it finishes now
  const writeError = await writing;
  rmSync(path, { force: true });
  if (readError) throw readError;
  if (writeError) throw writeError;
  return result as T;
}
