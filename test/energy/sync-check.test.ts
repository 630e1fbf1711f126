/**
 * `publicdata sync --check` against a fake publisher (a local HTTP server serving Ofgem's levels page and a
 * GENERATED levels-model workbook, bench/lib/energy-workbook.mjs): discovery only, never a data file; what
 * the mirror holds, what is published, whether a sync would change it; `mirror status` shows it; exit 0
 * when nothing is newer, 1 when something is, 6 when a publisher could not be asked.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM generator shared with the bench
import { generateLevelsWorkbook } from '../../bench/lib/energy-workbook.mjs';
import { mirrorDir } from '../../src/mirror/paths.js';
import { syncDataset } from '../../src/sync-runner.js';
import { isolatedEnv, json, runCli } from '../support/cli.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const up = useUpstreamServer('pd-sync-check-');
const PAGE = '/energy-price-cap/energy-regulation/domestic-and-non-domestic/energy-pricing-rules/energy-price-cap/energy-price-cap-default-tariff-levels';
const V130 = '/sites/default/files/2026-05/Energy-price-cap-levels-pre-levelised-rates-model-v1.30-July-September-2026.xlsx';
const V131 = '/sites/default/files/2026-08/Default-tariff-cap-level-v1.31.xlsx';
const page = (links: string[]) => `<html><body>${links.map((l) => `<a href="${l}">levels model</a>`).join(' ')}</body></html>`;

describe('sync --check', () => {
  it('holds, published, would change; mirror status shows it; exit 0 / 1 / 6; nothing downloaded', async () => {
    const env = isolatedEnv({ PUBLICDATA_UPSTREAM_BASE: up.server.url });
    const now = new Date('2026-11-29T09:00:00Z');
    up.server.set(PAGE, page([V130]), { contentType: 'text/html' });
    up.server.set(V130, generateLevelsWorkbook().buffer);

    // not synced: a sync would load the v1.30 model -> exit 1
    let before = up.server.requests.length;
    const fresh = await runCli(['sync', '--check', 'energy-price-cap', '--format', 'json'], { env, now });
    expect(fresh.code).toBe(1);
    expect(json(fresh).data).toEqual([
      {
        dataset: 'energy-price-cap',
        mirror_holds: 'not synced',
        published: 'Energy-price-cap-levels-pre-levelised-rates-model-v1.30-July-September-2026.xlsx',
        sync_would_change: true,
        detail: "not synced: 'publicdata sync energy-price-cap' would load Energy-price-cap-levels-pre-levelised-rates-model-v1.30-July-September-2026.xlsx",
      },
    ]);
    expect(up.server.requests.slice(before).map((q) => q.path)).toEqual([PAGE]); // the page only, no workbook

    // synced from v1.30: nothing newer -> exit 0
    const r = await syncDataset('energy-price-cap', { env, mirrorDir: mirrorDir(env), cacheDir: env.PUBLICDATA_CACHE_DIR!, now: () => now, retries: 0, backoffMs: 1 });
    expect(r.status).toBe('synced');
    before = up.server.requests.length;
    const same = await runCli(['sync', '--check', 'energy-price-cap', '--format', 'json'], { env, now });
    expect(same.code).toBe(0);
    const s = json(same).data[0];
    expect(s).toMatchObject({ sync_would_change: false, mirror_holds: 'data to 2026-01-01, synced 2026-11-29' });
    expect(up.server.requests.slice(before).map((q) => q.path)).toEqual([PAGE]);

    // Ofgem publishes v1.31: newer -> exit 1, named; still nothing downloaded
    up.server.set(PAGE, page([V130, V131]), { contentType: 'text/html' });
    before = up.server.requests.length;
    const newer = await runCli(['sync', '--check', 'energy-price-cap', '--format', 'json'], { env, now });
    expect(newer.code).toBe(1);
    expect(json(newer).data[0]).toMatchObject({
      mirror_holds: 'data to 2026-01-01, synced 2026-11-29',
      published: 'Default-tariff-cap-level-v1.31.xlsx',
      sync_would_change: true,
      detail: "'publicdata sync energy-price-cap' would load Default-tariff-cap-level-v1.31.xlsx",
    });
    expect(up.server.requests.slice(before).map((q) => q.path)).toEqual([PAGE]);

    // mirror status shows the last check
    const status = json(await runCli(['mirror', 'status', 'energy-price-cap', '--format', 'json'], { env, now }));
    expect(status.data[0].upstream_check).toBe("2026-11-29: newer published ('publicdata sync energy-price-cap' would load Default-tariff-cap-level-v1.31.xlsx)");

    // the publisher cannot be asked (the page is gone): null, exit 6
    up.server.fault(PAGE, { status: 404 });
    const gone = await runCli(['sync', '--check', 'energy-price-cap', '--format', 'json'], { env, now });
    up.server.fault(PAGE, undefined);
    expect(gone.code).toBe(6);
    expect(json(gone).data[0]).toMatchObject({ sync_would_change: null, published: null });

    // options that download or load do not go with --check: usage error, exit 2, nothing asked
    before = up.server.requests.length;
    const bad = await runCli(['sync', '--check', 'energy-price-cap', '--from', 'x.xlsx', '--format', 'json'], { env, now });
    expect(bad.code).toBe(2);
    expect(json(bad).error.message).toMatch(/--from cannot go with it/);
    expect(up.server.requests.length).toBe(before);
  });
});
