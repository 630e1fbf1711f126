/**
 * Table-format renderers of the commands that are not routes: `mirror status` (one compact line per
 * dataset) and `api --list` (one line per route; two, wrapped, on a narrow terminal). Their json, ndjson
 * and csv are the built-in ones.
 */
import type { Row } from './records.js';
import type { Renderer, RendererMap } from './types.js';
import { recordsTable } from './view.js';
import { displayWidth, wrapWords } from './wrap.js';

const plainTable = (rc: { fields?: readonly string[]; wide: boolean }) => !rc.fields && !rc.wide;

const mirrorStatus: Renderer = {
  name: 'mirror-status',
  canRender: (_o, rc) => plainTable(rc),
  render: (out, rc) => {
    const rows = out.envelope.data as Row[];
    if (rows.length === 0) return '(no datasets)\n';
    return recordsTable(
      rows.map((r) => ({
        dataset: r.dataset,
        synced: typeof r.synced_at === 'string' ? r.synced_at.slice(0, 16).replace('T', ' ') : 'never',
        published: r.published ?? '',
        rows: r.rows ?? '',
        size: r.present ? `${(Number(r.size_bytes) / 1048576).toFixed(1)} MiB` : '',
        cache: Number(r.cache_bytes) > 0 ? `${(Number(r.cache_bytes) / 1048576).toFixed(1)} MiB` : '',
        stale: r.stale === null || r.stale === undefined ? '' : r.stale ? 'stale' : 'fresh',
        note: r.note,
      })),
      rc,
    );
  },
};

interface RouteRow {
  method: string;
  path: string;
  cost: number;
  datasets: string[];
  offline: boolean;
  summary: string;
}

/** Indent of an `api --list` route's second line (where, and what) on a narrow terminal. */
const LIST_INDENT = '     ';

/**
 * One line a route (method, path, cost, where it answers, summary) when every line fits the terminal;
 * else the method, path and cost on one line and where it answers and the summary under them, wrapped at
 * word boundaries.
 */
const apiList: Renderer = {
  name: 'api-list',
  canRender: (_o, rc) => plainTable(rc),
  render: (out, rc) => {
    const rows = out.envelope.data as RouteRow[];
    const w = Math.max(...rows.map((r) => r.path.length));
    const parts = rows.map((r) => {
      const offline = r.offline ? (r.datasets.length ? `local (sync ${r.datasets.join(', ')})` : 'local') : 'live only';
      return { call: `${r.method.padEnd(5)}${r.path.padEnd(w + 2)}${String(r.cost).padStart(2)} credit${r.cost === 1 ? ' ' : 's'}`, offline, summary: r.summary };
    });
    const lines = parts.map((p) => `${p.call}  ${p.offline.padEnd(28)} ${p.summary}`);
    const fits = rc.columns <= 0 || lines.every((l) => displayWidth(l) <= rc.columns);
    const narrow = () =>
      parts.map((p) => [wrapWords(p.call.trimEnd(), rc.columns, LIST_INDENT), `${LIST_INDENT}${wrapWords(`${p.offline} · ${p.summary}`, rc.columns - LIST_INDENT.length, LIST_INDENT)}`].join('\n'));
    return `${(fits ? lines : narrow()).join('\n')}\n${rows.length} routes\n`;
  },
};

export const renderers: RendererMap = { 'mirror.status': mirrorStatus, 'api.list': apiList };
