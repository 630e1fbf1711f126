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
