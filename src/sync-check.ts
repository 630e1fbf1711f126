/**
 * `publicdata sync --check [dataset…]`: ask each publisher what is newest (the module's discovery only:
 * index pages, APIs and one-byte size requests, never a data file), and say per dataset what the mirror holds,
 * what is published and whether a sync would change it. The result is recorded beside the mirror
 * (src/mirror/check-record.ts) for `mirror status`. Nothing here writes to a dataset file.
 *
 * "Would change": the discovery of a synced dataset is given the live file's state, as a sync's is, so a
 * module that fetches only what is new (accounts, earnings, food-hygiene) returns nothing when nothing is;
 * otherwise the files named are compared with those the mirror was built from (sync_log): a name not loaded
 * is newer. A file re-issued under a name already loaded shows only in its bytes, which a check does not
 * download (earnings compares sizes itself and names such a file; docs/mirror.md).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { checkSummary, writeChecks, type CheckRecord } from './mirror/check-record.js';
import { mirrorDir as defaultMirrorDir, type Env } from './mirror/paths.js';
import { readSyncHistory } from './mirror/sync-log.js';
import { fetchText, remoteSize } from '../sync/download.js';
import { resolveBaseUrl } from '../sync/framework.js';
import { loadModule } from './sync-runner.js';
import type { SyncOptions, UpstreamFile } from '../sync/types.js';

export { checkSummary };
export type { CheckRecord };

export interface CheckOptions {
  env: Env;
  mirrorDir?: string;
  now?: () => Date;
  /** Retries of each page request (default 2) and the first backoff (ms). */
  retries?: number;
  backoffMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The datasets' sync options that scope discovery (years, lists). */
  options?: SyncOptions;
}

/** The file names of the sync_log rows since the newest full load (what the mirror is built from). */
function loadedNames(history: ReadonlyArray<Record<string, unknown>>): Set<string> {
  let names = new Set<string>();
  for (const r of history) {
    let files: Array<{ name?: string }> = [];
    try {
      files = JSON.parse(String(r.files ?? '[]')) as Array<{ name?: string }>;
    } catch {
      /* an older row without its file list */
    }
    if (r.mode !== 'incremental') names = new Set();
    for (const f of files) if (f.name) names.add(f.name);
  }
  return names;
}

function describeFiles(files: readonly UpstreamFile[]): string {
  const shown = files.slice(0, 3).map((f) => (f.published ? `${f.name} (${f.published})` : f.name));
  return files.length > 3 ? `${shown.join(', ')} and ${files.length - 3} more` : shown.join(', ');
}

/** Ask one dataset's publisher. Never throws for a publisher that cannot be asked (newer: null). */
export async function checkDataset(name: string, opts: CheckOptions): Promise<CheckRecord> {
  const mirror = opts.mirrorDir ?? defaultMirrorDir(opts.env);
  const now = opts.now ?? (() => new Date());
  const mod = await loadModule(name);
  const live = join(mirror, mod.file);
  const prev = existsSync(live) ? await readSyncHistory(live, mod.readPrevious?.bind(mod)) : undefined;
  const last = prev?.state.lastSync;
  const held = prev && !prev.damaged && last ? prev : undefined;
  const holds = held
    ? [last!.published ? `published ${last!.published}` : null, last!.as_of ? `data to ${last!.as_of}` : null, `synced ${String(last!.synced_at).slice(0, 10)}`]
        .filter(Boolean)
        .join(', ')
    : prev?.damaged
      ? `a damaged file (${prev.damaged})`
      : null;
  const base = { dataset: name, checked_at: now().toISOString(), holds };
  let files: UpstreamFile[];
  try {
    files = await mod.discover({
      baseUrl: resolveBaseUrl(mod, opts.env),
      fetchText: (u) =>
        fetchText(u, { retries: opts.retries ?? 2, ...(opts.backoffMs !== undefined ? { backoffMs: opts.backoffMs } : {}), ...(opts.sleep ? { sleep: opts.sleep } : {}) }),
      sizeOf: (u) => remoteSize(u),
      options: opts.options ?? {},
      now,
      ...(held ? { previous: held.state } : {}),
    });
  } catch (e) {
    return { ...base, published: null, newer: null, detail: (e as Error).message.split('\n')[0]! };
  }
  if (!held) {
    const published = files.length ? describeFiles(files) : 'nothing found';
    return { ...base, published, newer: files.length > 0, detail: files.length ? `not synced: 'publicdata sync ${name}' would load ${published}` : 'not synced, and the publisher lists nothing to load' };
  }
  if (files.length === 0) return { ...base, published: 'nothing new beyond what is loaded', newer: false, detail: 'the publisher lists nothing the mirror lacks' };
  const have = loadedNames(held.history);
  const fresh = files.filter((f) => f.reload || !have.has(f.name));
  if (fresh.length === 0)
    return { ...base, published: describeFiles(files), newer: false, detail: 'the files published are those loaded (a re-issue under the same name shows only in its bytes, not downloaded by a check)' };
  const notes = fresh.map((f) => f.note).filter(Boolean);
  return {
    ...base,
    published: describeFiles(files),
    newer: true,
    detail: `'publicdata sync ${name}' would load ${describeFiles(fresh)}${notes.length ? `; ${notes.join('; ')}` : ''}`,
  };
}

/** Check the datasets one after another, record the results beside the mirror, and return them. */
export async function runCheck(names: readonly string[], opts: CheckOptions): Promise<CheckRecord[]> {
  const out: CheckRecord[] = [];
  for (const n of names) out.push(await checkDataset(n, opts));
  writeChecks(opts.mirrorDir ?? defaultMirrorDir(opts.env), out);
  return out;
}
