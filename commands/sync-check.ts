/**
 * `publicdata sync --check [dataset…]` (sync/check.ts): per dataset what the mirror holds, what the publisher
 * offers now (discovery only, no download) and whether a sync would change it. Exit codes: 0 nothing newer,
 * 1 something newer (a scheduled job can act on it), 6 a publisher could not be asked and nothing else is
 * newer (README "Exit codes").
 */
import { EXIT } from '../src/contract/errors.js';
import type { Context } from '../src/context.js';
import type { GlobalOptions } from '../src/invoke.js';
import type { Row } from '../src/output/records.js';
import { writeRows } from './mirror-common.js';

export async function syncCheck(ctx: Context, g: GlobalOptions, list: readonly string[]): Promise<number> {
  const { runCheck } = await import('../sync/check.js');
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
