/**
 * What `publicdata sync --check` last found per dataset, kept beside the mirror (`sync-check.json`) so that
 * `mirror status` can show it. Written by src/sync-check.ts; read by src/mirror/status.ts. A plain JSON file: no
 * DuckDB, nothing a sync relies on.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const CHECK_FILE = 'sync-check.json';

export interface CheckRecord {
  dataset: string;
  /** When the publisher was asked (ISO instant). */
  checked_at: string;
  /** What the mirror holds: its files and dates, or null when not synced. */
  holds: string | null;
  /** What the publisher offers now (discovery only, nothing downloaded), or null when it could not be asked. */
  published: string | null;
  /** Whether a sync would change the mirror: true, false, or null when the publisher could not be asked. */
  newer: boolean | null;
  /** Why, in words. */
  detail: string;
}

/** The last check of every dataset checked, by name ({} when none). */
export function readChecks(mirrorDir: string): Record<string, CheckRecord> {
  try {
    const doc = JSON.parse(readFileSync(join(mirrorDir, CHECK_FILE), 'utf8')) as { checks?: Record<string, CheckRecord> };
    return doc.checks && typeof doc.checks === 'object' ? doc.checks : {};
  } catch {
    return {};
  }
}

/** Record these checks (replacing the datasets' earlier ones), written atomically. */
export function writeChecks(mirrorDir: string, records: readonly CheckRecord[]): void {
  mkdirSync(mirrorDir, { recursive: true });
  const checks = { ...readChecks(mirrorDir) };
  for (const r of records) checks[r.dataset] = r;
  const path = join(mirrorDir, CHECK_FILE);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ checks }, null, 2)}\n`);
  renameSync(tmp, path);
}

/** One line for `mirror status`: '2026-11-29: newer published (…)'. */
export function checkSummary(r: CheckRecord): string {
  const day = r.checked_at.slice(0, 10);
  if (r.newer === null) return `${day}: the publisher could not be asked (${r.detail})`;
  return `${day}: ${r.newer ? 'newer published' : 'nothing newer'} (${r.detail})`;
}
