/**
 * `publicdata sync --check [dataset…]` (src/sync-check.ts): per dataset what the mirror holds, what the publisher
 * offers now (discovery only, no download) and whether a sync would change it. Exit codes: 0 nothing newer,
 * 1 something newer (a scheduled job can act on it), 6 a publisher could not be asked and nothing else is
 * newer (README "Exit codes").
 */
import { ApiError, EXIT } from '../src/contract/errors.js';
import type { Context } from '../src/context.js';
import type { GlobalOptions } from '../src/invoke.js';
import type { Row } from '../src/output/records.js';
import { writeRows } from './mirror-common.js';

/** The sync options that download or load: meaningless with --check (usage error, exit 2). */
const LOADING = ['from', 'force', 'replace', 'keepDownloads', 'allowShrink', 'limitRate'] as const;

export async function syncCheck(ctx: Context, g: GlobalOptions, list: readonly string[], o: Partial<Record<(typeof LOADING)[number], unknown>> = {}): Promise<number> {
  const bad = LOADING.filter((k) => o[k] !== undefined);
  if (bad.length)
    throw new ApiError(
      400,
      'usage_error',
      `sync --check asks the publishers only (nothing is downloaded or loaded): ${bad.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')} cannot go with it.`,
    );
  const { runCheck } = await import('../src/sync-check.js');
  const records = await runCheck(list, { env: ctx.env, now: () => ctx.now() });
  const rows: Row[] = records.map((r) => ({
    dataset: r.dataset,
    mirror_holds: r.holds ?? 'not synced',
    published: r.published,
    sync_would_change: r.newer,
    detail: r.detail,
  }));
  await writeRows(ctx, g, 'sync.check', rows);
  if (records.some((r) => r.newer === true)) return EXIT.ERROR;
  if (records.some((r) => r.newer === null)) return EXIT.NETWORK;
  return EXIT.OK;
}
