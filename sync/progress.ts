/** Progress of a sync for people: a bar on a TTY, one summary line per dataset otherwise. */
import type { ProgressSink, SyncEvent } from './types.js';

export const fmtBytes = (n: number): string => {
  const u = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < u.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 100 || i === 0 ? v.toFixed(0) : v.toFixed(1)} ${u[i]}`;
};
const fmtDuration = (ms: number): string => {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${(ms / 1000).toFixed(s < 10 ? 1 : 0)}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m${String(s % 60).padStart(2, '0')}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
};

// Progress: a bar on a TTY, one summary line per dataset otherwise.

export interface ProgressReporterOptions {
  stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Defaults to stream.isTTY. */
  tty?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  /** The clock in milliseconds (redraw throttling, load rate); Date.now by default, a fake one in tests. */
  now?: () => number;
}

export function createProgressReporter(o: ProgressReporterOptions): ProgressSink {
  const tty = o.tty ?? !!o.stream.isTTY;
  const now = o.now ?? Date.now;
  let lastLen = 0;
  let lastDraw = 0;
  const draw = (line: string, force = false) => {
    if (!tty || o.quiet) return;
    const t = now();
    if (!force && t - lastDraw < 100) return;
    lastDraw = t;
    const width = Math.max(20, (o.stream.columns ?? 100) - 1);
    const s = line.length > width ? line.slice(0, width) : line;
    o.stream.write(`\r${s}${' '.repeat(Math.max(0, lastLen - s.length))}`);
    lastLen = s.length;
  };
  const endLine = () => {
    if (tty && lastLen) o.stream.write('\r' + ' '.repeat(lastLen) + '\r');
    lastLen = 0;
  };
  let loadStart: number | undefined;
  return (e: SyncEvent) => {
    switch (e.type) {
      case 'phase':
        if (e.phase === 'load') loadStart = now();
        // The download size, stated before a long download starts (also when not on a terminal).
        if (!tty && !o.quiet && e.phase === 'download' && e.detail) o.stream.write(`${e.dataset}: ${e.detail}\n`);
        if (tty) draw(`${e.dataset}: ${e.phase}${e.detail ? ` (${e.detail})` : ''}…`, true);
        break;
      case 'download': {
        const pct = e.total ? e.bytes / e.total : undefined;
        const barW = 24;
        const bar = pct === undefined ? '' : `[${'#'.repeat(Math.round(pct * barW)).padEnd(barW, '.')}] `;
        const eta = e.total && e.rate > 0 ? ` ETA ${fmtDuration(((e.total - e.bytes) / e.rate) * 1000)}` : '';
        draw(`${e.dataset} ${e.file} ${bar}${fmtBytes(e.bytes)}${e.total ? ` / ${fmtBytes(e.total)}` : ''}  ${fmtBytes(e.rate)}/s${eta}`);
        break;
      }
      case 'rows':
        draw(`${e.dataset}: loaded ${e.rows.toLocaleString('en-GB')} rows`, true);
        break;
      case 'load': {
        loadStart ??= now();
        const barW = 24;
        const pct = Math.min(100, Math.max(0, e.percentage));
        const el = now() - loadStart;
        const eta = pct > 1 ? ` ETA ${fmtDuration((el * (100 - pct)) / pct)}` : '';
        draw(`${e.dataset}: loading [${'#'.repeat(Math.round((pct / 100) * barW)).padEnd(barW, '.')}] ${pct.toFixed(0)}%${eta}`);
        break;
      }
      case 'retry': {
        // Say what it waits for: on a terminal always, otherwise with --verbose.
        const text = `${e.dataset}: ${e.reason}; retry ${e.attempt - 1} of ${e.attempts - 1} in ${(e.delayMs / 1000).toFixed(1)}s`;
        if (o.quiet) break;
        if (tty) draw(`${text}…`, true);
        else if (o.verbose) o.stream.write(`${text}\n`);
        break;
      }
      case 'status': {
        if (!tty) break;
        const share = e.share && e.share.total > 0 ? Math.min(1, Math.max(0, e.share.done / e.share.total)) : undefined;
        const barW = 24;
        draw(`${e.dataset}: ${share === undefined ? '' : `[${'#'.repeat(Math.round(share * barW)).padEnd(barW, '.')}] ${(share * 100).toFixed(0)}% `}${e.text}`, true);
        break;
      }
      case 'message':
        // A dataset's warnings (`warning: …` from ctx.log) show without --verbose; other messages with it.
        if (!o.quiet && (o.verbose || e.text.startsWith('warning:'))) {
          endLine();
          o.stream.write(`${e.dataset}: ${e.text}\n`);
        }
        break;
      case 'done': {
        endLine();
        if (o.quiet) break;
        const r = e.report;
        if (r.status === 'up_to_date') {
          o.stream.write(`${r.dataset}: already up to date (${(r.rows_total ?? 0).toLocaleString('en-GB')} rows${r.as_of ? `, as of ${r.as_of}` : ''})\n`);
        } else {
          o.stream.write(
            `${r.dataset}: synced (${r.mode === 'incremental' ? 'incremental update' : 'full load'}) ` +
              `${r.rows_loaded.toLocaleString('en-GB')} rows loaded, ${r.rows_rejected.toLocaleString('en-GB')} rejected, ` +
              `${(r.rows_total ?? r.rows_loaded).toLocaleString('en-GB')} in the mirror; ` +
              `${r.bytes_downloaded ? `${fmtBytes(r.bytes_downloaded)} downloaded` : 'from a local file'} in ${fmtDuration(r.duration_ms)}${r.as_of ? `; as of ${r.as_of}` : ''}${r.note ? `; ${r.note}` : ''}\n`,
          );
        }
        break;
      }
      case 'failed':
        endLine();
        o.stream.write(`${e.dataset}: sync failed: ${e.error.message}\n`);
        break;
    }
  };
}
