/**
 * Issue 21 item 3: a skipped price-paid monthly update. Each load records the month it covers; an update
 * that leaves a month out is preceded by the yearly files of the missing months (repaired, and said so),
 * or refused with what to pass. Against a local upstream server; expected rows computed with plain JS.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { syncDataset } from '../../src/sync-runner.js';
import { exportMirror } from '../../src/mirror/export.js';
import type { Manifest } from '../../src/mirror/export-manifest.js';
import { DATASETS } from '../../src/registry.js';
import { sqlOn, tempDir } from '../support/mirror-helper.js';
import { indexPage } from '../support/upstream-server.js';
import { applyUpdate, fixture, parseCsvLine, readPpd, type PpdRow } from './ppd-fixture.js';
import { readFileSync } from 'node:fs';
import { useUpstreamServer } from '../support/upstream-harness.js';

const up = useUpstreamServer('pd-months-');
const complete = readPpd('pp-complete.csv');
const update = readPpd('pp-monthly-update-new-version.csv');
const LINES = readFileSync(fixture('pp-complete.csv'), 'utf8').trim().split('\n');

/**
 * GENERATED yearly files in the real format: fixture lines with fresh ids (…-0000000YYYNN) and transfer
 * dates moved into `year` (months 1-3), as pp-YYYY.csv would hold them.
 */
function yearly(year: number, from: number, n: number): { text: string; rows: PpdRow[] } {
  const lines = LINES.slice(from, from + n).map((l, i) => {
    const id = `{00000000-0000-4000-8000-${String(year * 100 + i).padStart(12, '0')}}`;
    const date = `${year}-0${(i % 3) + 1}-${String((i % 27) + 1).padStart(2, '0')} 00:00`;
    const f = parseCsvLine(l);
    f[0] = id;
    f[2] = date;
    return f.map((v) => `"${v}"`).join(',');
  });
  const text = `${lines.join('\n')}\n`;
  const dir = tempDir('pd-months-y-');
  writeFileSync(join(dir, 'f.csv'), text);
  const rows = readFileSync(join(dir, 'f.csv'), 'utf8').trim().split('\n').map((l) => {
    const f = parseCsvLine(l);
    return { ...complete[0]!, id: f[0]!.replace(/[{}]/g, '').toLowerCase(), date: f[2]!.slice(0, 10), status: f[15]! };
  });
  return { text, rows };
}

const y2025 = yearly(2025, 0, 20);
const y2026 = yearly(2026, 20, 10);
const months = (dir: string) => sqlOn(join(dir, 'price_paid.duckdb'), 'SELECT month, source, files FROM price_paid_months ORDER BY month, source');
const ids = async (dir: string) => new Set((await sqlOn(join(dir, 'price_paid.duckdb'), 'SELECT id::VARCHAR AS id FROM price_paid')).map((r) => r.id as string));

const exportPp = (mirrorDir: string, outDir: string, since?: string) =>
  exportMirror({ catalogue: DATASETS, env: {}, format: 'parquet', outDir, datasets: ['price-paid'], mirrorDir, ...(since ? { since } : {}) });
const partitionsOf = (lake: string) =>
  (JSON.parse(readFileSync(join(lake, 'manifest.json'), 'utf8')) as Manifest).datasets['price-paid']!.tables.find((t) => t.name === 'price_paid')!.partitions.map((p) => [p.path, p.rows, p.fingerprint]);

function serve(published: string): void {
  up.server.set('/price-paid/', indexPage({ c: 'pp-complete.csv', u: 'pp-monthly-update-new-version.csv', a: 'pp-2025.csv', b: 'pp-2026.csv' }, published), { contentType: 'text/html' });
}

beforeEach(() => {
  up.server.setFile('/price-paid/pp-complete.csv', fixture('pp-complete.csv'));
  up.server.setFile('/price-paid/pp-monthly-update-new-version.csv', fixture('pp-monthly-update-new-version.csv'));
  up.server.set('/price-paid/pp-2025.csv', y2025.text);
  up.server.set('/price-paid/pp-2026.csv', y2026.text);
});

describe('price-paid: the month each load covers, and a missed month', () => {
  it('January and March syncs: February is repaired from pp-2025.csv and pp-2026.csv, and the summary says so', async () => {
    const o = up.syncOptions();
    serve('2026-01-21'); // the complete file published in January covers registrations up to December 2025
    expect(await syncDataset('price-paid', o)).toMatchObject({ status: 'synced', mode: 'full' });
    expect(await months(o.mirrorDir)).toEqual([{ month: '2025-12', source: 'full', files: 'pp-complete.csv' }]);
    const lake = tempDir('pd-months-lake-');
    await exportPp(o.mirrorDir, lake);
    // the March update (the real excerpt: transfers lodged up to 2026-03-20) published in April: January
    // and February were never applied
    serve('2026-04-22');
    const before = up.server.requests.length;
    const r = await syncDataset('price-paid', o);
    const fetched = up.server.requests.slice(before).map((q) => q.path).filter((p) => p.endsWith('.csv'));
    expect(fetched).toEqual(['/price-paid/pp-2025.csv', '/price-paid/pp-2026.csv', '/price-paid/pp-monthly-update-new-version.csv']);
    expect(r).toMatchObject({ status: 'synced', mode: 'incremental' });
    expect(r.note).toMatch(/repaired the missed months \(2 months, 2026-01 to 2026-02\) from pp-2025\.csv, pp-2026\.csv/);
    const expected = applyUpdate([...complete, ...y2025.rows, ...y2026.rows], update);
    expect(r.rows_total).toBe(expected.length);
    expect(await ids(o.mirrorDir)).toEqual(new Set(expected.map((x) => x.id)));
    expect(await months(o.mirrorDir)).toEqual([
      { month: '2025-12', source: 'full', files: 'pp-complete.csv' },
      { month: '2026-01', source: 'repair', files: 'pp-2025.csv pp-2026.csv' },
      { month: '2026-02', source: 'repair', files: 'pp-2025.csv pp-2026.csv' },
      { month: '2026-03', source: 'update', files: 'pp-monthly-update-new-version.csv' },
    ]);
    // mirror export --since after the repair (fingerprints from the sync's record of the rows it changed,
    // the dropped years' rows included) equals a fresh export, partition by partition
    const inc = await exportPp(o.mirrorDir, lake, lake);
    const fresh = tempDir('pd-months-fresh-');
    await exportPp(o.mirrorDir, fresh);
    expect(await partitionsOf(lake)).toEqual(await partitionsOf(fresh));
    const years = new Set(expected.map((x) => x.date.slice(0, 4)));
    expect(inc.find((t) => t.table === 'price_paid')).toMatchObject({ rows: expected.length, partitions: years.size });
  });

  it('the rows dated in a repaired year are replaced by the yearly file (a deletion in the missed month is not kept)', async () => {
    const o = up.syncOptions();
    serve('2026-01-21');
    await syncDataset('price-paid', o);
    // the mirror gets a 2026 row through an added yearly file; the publisher's later pp-2026.csv no longer has it
    const d = tempDir('pd-months-add-');
    writeFileSync(join(d, 'pp-2026.csv'), yearly(2026, 40, 1).text.replace('202600}', '202699}'));
    const added = await syncDataset('price-paid', { ...o, from: join(d, 'pp-2026.csv') });
    expect(added.rows_total).toBe(301);
    expect(await ids(o.mirrorDir)).toContain('00000000-0000-4000-8000-000000202699');
    const lake = tempDir('pd-months-lake2-');
    await exportPp(o.mirrorDir, lake);
    serve('2026-04-22');
    const r = await syncDataset('price-paid', o);
    // --since after the repair that dropped the 2026 row: fingerprints from the record equal a fresh export's
    await exportPp(o.mirrorDir, lake, lake);
    const fresh = tempDir('pd-months-fresh2-');
    await exportPp(o.mirrorDir, fresh);
    expect(await partitionsOf(lake)).toEqual(await partitionsOf(fresh));
    expect(await ids(o.mirrorDir)).toEqual(new Set(applyUpdate([...complete, ...y2025.rows, ...y2026.rows], update).map((x) => x.id)));
    expect(r.rows_total).toBe(applyUpdate([...complete, ...y2025.rows, ...y2026.rows], update).length);
  });

  it('a gap without the yearly files is refused, naming them; the data stays', async () => {
    const o = up.syncOptions();
    serve('2026-01-21');
    await syncDataset('price-paid', o);
    await expect(syncDataset('price-paid', { ...o, from: fixture('pp-monthly-update-new-version.csv') })).rejects.toThrow(
      /the update covers 2026-03 but the mirror covers registrations only up to 2025-12: 2 months, 2026-01 to 2026-02 missing, repaired only with the yearly file\(s\) pp-2025\.csv, pp-2026\.csv\. .*--from pp-2025\.csv --from pp-2026\.csv --from pp-monthly-update-new-version\.csv/,
    );
    expect(await sqlOn(join(o.mirrorDir, 'price_paid.duckdb'), 'SELECT count(*)::INTEGER AS n FROM price_paid')).toEqual([{ n: 300 }]);
  });

  it('consecutive months need no repair', async () => {
    const o = up.syncOptions();
    serve('2026-03-20'); // covers up to February
    await syncDataset('price-paid', o);
    serve('2026-04-22');
    const before = up.server.requests.length;
    const r = await syncDataset('price-paid', o);
    expect(up.server.requests.slice(before).map((q) => q.path).filter((p) => p.endsWith('.csv'))).toEqual(['/price-paid/pp-monthly-update-new-version.csv']);
    expect(r.note ?? '').not.toMatch(/repaired/);
    expect(r.rows_total).toBe(applyUpdate(complete, update).length);
  });
});
