/**
 * Progress of `mirror export`: on a terminal one redrawn line per table (dataset/table, n of m, what is
 * being done); otherwise nothing until the end, then one summary line. Written to stderr by the command.
 */
export type ExportEvent =
  | { type: 'table'; dataset: string; table: string; index: number; total: number; step: 'fingerprint' | 'write' | 'swap'; partitions?: number }
  | {
      type: 'done'; datasets: number; tables: number; rows: number; partitions: number; rewritten: number; kept: number; bytes: number; ms: number; out: string;
      /** With --since: the tables (`dataset/table`) whose changes came from the sync's record; every other table was read whole. */
      recorded?: string[];
    };

export interface ExportProgressOptions {
  stream: { write(s: string): unknown; columns?: number };
  tty: boolean;
  quiet?: boolean;
}

const mb = (n: number) => (n >= 1e9 ? `${(n / 1e9).toFixed(2)} GB` : `${(n / 1e6).toFixed(1)} MB`);

/**
 * What --since read, for the summary: the tables whose sync recorded its changes (only those partitions
 * read), and that every other table (every table of a dataset without change records) was read whole to
 * find its changed partitions, which costs a scan of the dataset even when nothing changed.
 */
function sinceNote(recorded: readonly string[] | undefined): string {
  if (!recorded) return '';
  const rest = 'read whole to find the changed partitions (no change record)';
  return recorded.length ? `; --since: ${recorded.join(', ')} from the sync's change record, every other table ${rest}` : `; --since: every table ${rest}`;
}

export function createExportProgress(o: ExportProgressOptions): (e: ExportEvent) => void {
  let lastLen = 0;
  return (e) => {
    if (o.quiet) return;
    if (e.type === 'table') {
      if (!o.tty) return;
      const what = e.step === 'write' ? `writing ${e.partitions ?? 0} partition(s)` : e.step === 'swap' ? 'swapping in' : 'fingerprinting';
      const line = `export ${e.dataset}/${e.table} (${e.index} of ${e.total}): ${what}…`.slice(0, Math.max(20, (o.stream.columns ?? 100) - 1));
      o.stream.write(`\r${line}${' '.repeat(Math.max(0, lastLen - line.length))}`);
      lastLen = line.length;
      return;
    }
    if (o.tty && lastLen) o.stream.write(`\r${' '.repeat(lastLen)}\r`);
    lastLen = 0;
    o.stream.write(
      `exported ${e.datasets} dataset(s), ${e.tables} tables, ${e.rows.toLocaleString('en-GB')} rows, ${e.partitions} partitions ` +
        `(${e.rewritten} written, ${e.kept} unchanged), ${mb(e.bytes)} in ${(e.ms / 1000).toFixed(1)} s to ${e.out}${sinceNote(e.recorded)}\n`,
    );
  };
}
