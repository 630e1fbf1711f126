/**
 * `publicdata sync psc` against a local upstream server: discovery from the real saved download page,
 * a snapshot in several part zips, the totals trailer checked (verified / warning on mismatch), unknown
 * kinds kept as rejects, and no addresses or dates of birth stored.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syncDataset } from '../../src/sync-runner.js';
import type { SyncEvent } from '../../sync/types.js';
import { chFixture } from '../companies/fixture.js';
import { sqlOn } from '../support/mirror-helper.js';
import { buildZip } from '../support/zip.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const h = useUpstreamServer('pd-psc-sync-');
const LINES = readFileSync(chFixture('DERIVED-psc-snapshot-lines.txt'), 'utf8').split('\n').filter(Boolean);
const RECORDS = LINES.slice(0, -1).map((l) => JSON.parse(l) as { company_number: string; data: Record<string, any> });
const REAL_TRAILER = LINES[LINES.length - 1]!;
const PAGE = readFileSync(chFixture('en_pscdata.html'), 'utf8'); // real page of 2022-02-09: one-file + 20 parts
const ONE = 'persons-with-significant-control-snapshot-2022-02-09.zip';
const trailer = (p: number, s: number, e: number) =>
  JSON.stringify({ data: { kind: 'totals#persons-of-significant-control-snapshot', persons_of_significant_control_count: p, statements_count: s, exemptions_count: e, generated_at: '2022-02-09T03:40:50Z' } });
const persons = RECORDS.filter((r) => r.data.kind !== 'persons-with-significant-control-statement').length;
const statements = RECORDS.length - persons;

describe('sync psc', () => {
  it('loads the one-file snapshot the real page links, verifies the trailer, keeps an unknown kind as a reject', async () => {
    // GENERATED: a line of a kind the loader does not know (as new kinds have appeared over the years).
    const unknown = JSON.stringify({ company_number: '01234567', data: { kind: 'some-future-kind', etag: 'x' } });
    const body = [...LINES.slice(0, -1), unknown, trailer(persons + 1, statements, 0)].join('\n') + '\n';
    h.server.set('/psc/en_pscdata.html', PAGE);
    h.server.set(`/psc/${ONE}`, await buildZip([{ name: ONE.replace('.zip', '.txt'), data: body }]));
    const opts = h.syncOptions('2022-02-09T12:00:00Z');
    const events: SyncEvent[] = [];
    const r = await syncDataset('psc', { ...opts, progress: (e) => events.push(e) });
    expect(r).toMatchObject({ status: 'synced', rows_loaded: RECORDS.length, rows_rejected: 1, as_of: '2022-02-09' });
    expect(r.files.map((f) => f.name)).toEqual([ONE]);
    const texts = events.flatMap((e) => (e.type === 'message' ? [e.text] : []));
    expect(texts).toContain(`trailer verified: ${RECORDS.length + 1} records`);
    expect(texts.some((t) => t.includes('1 of kind some-future-kind'))).toBe(true);
    const file = join(opts.mirrorDir, 'psc.duckdb');
    expect(await sqlOn(file, 'SELECT reason, raw FROM rejects')).toEqual([{ reason: 'unknown kind some-future-kind', raw: '01234567 some-future-kind' }]);
    // every record, by kind, against the lines parsed here
    const byKind = (await sqlOn(file, 'SELECT kind, count(*) AS n FROM psc GROUP BY kind ORDER BY kind')) as Array<{ kind: string; n: number }>;
    const expected = new Map<string, number>();
    for (const rec of RECORDS) expected.set(rec.data.kind, (expected.get(rec.data.kind) ?? 0) + 1);
    expect(byKind).toEqual([...expected].sort(([a], [b]) => a.localeCompare(b)).map(([kind, n]) => ({ kind, n })));
    // personal data: no address or birth-date columns; an individual's key has only month and year of birth
    const cols = (await sqlOn(file, "SELECT column_name FROM duckdb_columns() WHERE table_name = 'psc'")).map((c) => c.column_name as string);
    expect(cols.filter((c) => /address|birth|dob|etag|links/.test(c))).toEqual([]);
    const marc = RECORDS.find((x) => x.data.name === 'Mr Marc Anthony Feldman')!;
    expect(await sqlOn(file, "SELECT identity_key FROM psc WHERE name = 'Mr Marc Anthony Feldman'")).toEqual([
      { identity_key: `I|MARC|FELDMAN|${marc.data.date_of_birth.year}-${String(marc.data.date_of_birth.month).padStart(2, '0')}` },
    ]);
    expect(await sqlOn(file, 'SELECT persons_count, statements_count FROM psc_totals')).toEqual([{ persons_count: persons + 1, statements_count: statements }]);
  });

  it('a snapshot in parts whose trailer disagrees with the lines read: synced, with a warning', async () => {
    const parts = ['psc-snapshot-2022-02-09_1of2.zip', 'psc-snapshot-2022-02-09_2of2.zip'];
    const page = `<html><body>${parts.map((p) => `<a href="${p}">${p}  (63Mb)</a>`).join('\n')}</body></html>`; // GENERATED page
    h.server.set('/psc/en_pscdata.html', page);
    h.server.set(`/psc/${parts[0]}`, await buildZip([{ name: parts[0]!.replace('.zip', '.txt'), data: LINES.slice(0, 5).join('\n') + '\n' }]));
    // the real trailer (2024-11-22 counts) after the remaining records: 13.5M records counted, 9 present
    h.server.set(`/psc/${parts[1]}`, await buildZip([{ name: parts[1]!.replace('.zip', '.txt'), data: [...LINES.slice(5, -1), REAL_TRAILER].join('\n') + '\n' }]));
    const events: SyncEvent[] = [];
    const r = await syncDataset('psc', { ...h.syncOptions('2022-02-09T12:00:00Z'), progress: (e) => events.push(e) });
    expect(r).toMatchObject({ status: 'synced', rows_loaded: RECORDS.length, rows_rejected: 0 });
    expect(r.files.map((f) => f.name)).toEqual(parts);
    const warning = events.find((e) => e.type === 'message' && e.text.startsWith('warning:'));
    expect(warning && warning.type === 'message' && warning.text).toBe(
      `warning: the snapshot's trailer counts 13574320 records (12799821 persons, 774422 statements, 77 exemptions) but ${RECORDS.length} were read; ` +
        'the download may be incomplete (or only some parts were given with --from)',
    );
  });
});
