import { fstatSync, writeSync } from 'node:fs';

/** The output and input streams a command writes to and reads from (buffers in tests). */
export interface Out {
  /** Text, or bytes already UTF-8 encoded (a Buffer: batch results encoded on worker threads). */
  write(chunk: string | Buffer, cb?: (err?: Error | null) => void): boolean | void;
  once?(event: 'drain', cb: () => void): unknown;
}

export interface IO {
  stdout: Out;
  stderr: Out;
  stdin: NodeJS.ReadableStream;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Terminal width for tables. */
  columns: number;
}

/**
 * The width tables and help are drawn to: the terminal's, else `COLUMNS` (a pipe, `watch`, a CI log:
 * shells export it, and users set it), else 100. A COLUMNS that is not a whole number from 20 to 1000 is
 * ignored.
 */
export function terminalColumns(ttyColumns: number | undefined, envColumns: string | undefined): number {
  if (ttyColumns && ttyColumns > 0) return ttyColumns;
  const n = envColumns !== undefined && /^\d+$/.test(envColumns.trim()) ? Number(envColumns.trim()) : NaN;
  return n >= 20 && n <= 1000 ? n : 100;
}

/**
 * Whether `fd` is a pipe or a regular file (not a terminal, a socket or a character device such as
 * /dev/null): then nothing needs Node's stream for it (no width, no colour) and `fdOut` may write to it.
 */
export function isPipeOrFile(fd: number): boolean {
  try {
    const st = fstatSync(fd);
    return st.isFIFO() || st.isFile();
  } catch {
    return false;
  }
}

/**
 * Output to a pipe or file descriptor without building Node's stream for it (docs/performance.md: for a
 * pipe `process.stdout` loads net and the stream modules, ~3% of a cold start). Each write goes to the
 * descriptor with writeSync, as process.stdout writes to a pipe or file on Linux (synchronously). If the
 * descriptor cannot take more at once (EAGAIN: a pipe another process set non-blocking), the rest of
 * that write and every later write go through `stream()` instead, in order. EPIPE (the reader has gone,
 * `publicdata ... | head`) calls `onEpipe` on the next tick, as the stream's 'error' handler would. `write`: tests give one.
 */
export function fdOut(fd: number, stream: () => NodeJS.WritableStream, onEpipe: () => void, write: (fd: number, b: Buffer) => number = writeSync): Out & { fd: number } {
  let s: NodeJS.WritableStream | undefined;
  let gone = false;
  const toStream = (chunk: string | Buffer, cb?: (err?: Error | null) => void): boolean => (s ??= stream()).write(chunk, cb);
  return {
    // the descriptor, as process.stdout has it (`sql` checks that its output is this process's fd 1)
    fd,
    write(chunk, cb) {
      if (gone) {
        if (cb) process.nextTick(cb, null);
        return true;
      }
      if (s !== undefined) return toStream(chunk, cb);
      let buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      try {
        while (buf.length > 0) buf = buf.subarray(write(fd, buf));
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EPIPE') {
          // As the stream reports it: on the next tick, not inside the caller's write (a DuckDB chunk
          // callback exiting the process from within deadlocked it), and nothing written after it.
          if (!gone) process.nextTick(onEpipe);
          gone = true;
          if (cb) process.nextTick(cb, null);
          return true;
        }
        if (code !== 'EAGAIN') throw e;
        return toStream(buf, cb);
      }
      if (cb) process.nextTick(cb, null);
      return true;
    },
    once(event, cb) {
      // asked only after a write returned false, which only the stream does
      (s ??= stream()).once(event, cb);
      return this;
    },
  };
}
