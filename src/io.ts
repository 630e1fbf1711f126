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
