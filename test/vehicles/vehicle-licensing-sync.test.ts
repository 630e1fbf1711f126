/**
 * vehicle-licensing sync from a local HTTP server: discovery through the gov.uk content API, the wide
 * VEH0120/VEH0160 files (GENERATED, format-true: test/vehicles/veh-fixture.ts) unpivoted to long rows,
 * markers/zeros/blanks dropped, a bad cell rejected, `--from` as files, a folder and a URL prefix.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syncDataset } from '../../src/sync-runner.js';
import { CONTENT_API_PATH } from '../../src/domains/vehicles/sync/vehicle-licensing.js';
import { sqlOn, tempDir } from '../support/mirror-helper.js';
import { expectedLong, generateVeh, vehCsv, vehQuarters, type Geo, type LongRow, type VehTable } from '../vehicles/veh-fixture.js';
import { useUpstreamServer } from '../support/upstream-harness.js';

const h = useUpstreamServer('pd-veh-');

const FILES: Array<{ name: string; table: VehTable; geo: Geo; rows: number; seed: number }> = [
  { name: 'df_VEH0120_GB.csv', table: 'licensing', geo: 'GB', rows: 240, seed: 11 },
  { name: 'df_VEH0120_UK.csv', table: 'licensing', geo: 'UK', rows: 160, seed: 12 },
  { name: 'df_VEH0160_GB.csv', table: 'registrations', geo: 'GB', rows: 120, seed: 13 },
  { name: 'df_VEH0160_UK.csv', table: 'registrations', geo: 'UK', rows: 80, seed: 14 },
];
const gen = FILES.map((f) => ({ ...f, data: generateVeh(f.table, f.geo, f.rows, f.seed) }));

/** Sum and row count of the expected long rows of a table (all geographies given). */
function summary(rows: LongRow[]): { n: number; total: number } {
  return { n: rows.length, total: rows.reduce((s, r) => s + r.count, 0) };
}
const expectedOf = (table: VehTable, geos: Geo[] = ['GB', 'UK']) =>
  gen.filter((g) => g.table === table && geos.includes(g.geo)).flatMap((g) => expectedLong(g.data, g.geo));

async function tableSummary(path: string, table: string): Promise<{ n: number; total: number }> {
  const [r] = await sqlOn(path, `SELECT count(*) AS n, coalesce(sum(count), 0) AS total FROM ${table}`);
  return { n: Number(r!.n), total: Number(r!.total) };
}

function serveAll(prefix: string, published = '2026-05-21T09:30:00.000+01:00'): void {
  const attachments = gen.map((g, i) => ({
    content_type: 'text/csv',
    filename: g.name,
    title: `${g.name} data`,
    url: `${h.server.url}/media/${'6a'.repeat(11)}${String(i).padStart(2, '0')}/${g.name}`,
  }));
  for (const [i, g] of gen.entries()) h.server.set(`/media/${'6a'.repeat(11)}${String(i).padStart(2, '0')}/${g.name}`, vehCsv(g.data));
  h.server.set(
    `${prefix}${CONTENT_API_PATH}`,
    JSON.stringify({
      title: 'Vehicle licensing statistics data files',
      public_updated_at: published,
      details: { attachments: [{ content_type: 'application/vnd.oasis.opendocument.spreadsheet', url: `${h.server.url}/media/x/veh0120.ods` }, ...attachments] },
    }),
    { contentType: 'application/json' },
  );
}

describe('vehicle-licensing sync', () => {
  it('discovers the four files through the content API and unpivots every non-zero count', async () => {
    serveAll('/vehicle-licensing');
    const o = h.syncOptions();
    const r = await syncDataset('vehicle-licensing', o);
    expect(r.status).toBe('synced');
    expect(r.files.map((f) => f.name)).toEqual(['df_VEH0120_GB.csv', 'df_VEH0120_UK.csv', 'df_VEH0160_GB.csv', 'df_VEH0160_UK.csv']);
    const path = r.path!;
    const lic = expectedOf('licensing');
    const reg = expectedOf('registrations');
    expect(await tableSummary(path, 'licensing')).toEqual(summary(lic));
    expect(await tableSummary(path, 'registrations')).toEqual(summary(reg));
    expect(r.rows_loaded).toBe(lic.length + reg.length);
    expect(r.rows_rejected).toBe(0);
    expect(r.published).toBe('2026-05-21');
    expect(r.as_of).toBe('2026-03-31');
    // quarter-end dates and a column per geography, checked on one row
    const one = lic.find((x) => x.geography === 'GB' && x.quarter === '1994-12-31') ?? lic[lic.length - 1]!;
    const got = await sqlOn(
      path,
      'SELECT count FROM licensing WHERE geography = ? AND quarter = CAST(? AS DATE) AND make = ? AND model = ? AND fuel = ? AND licence_status = ? AND body_type = ?',
      [one.geography, one.quarter, one.make, one.model, one.fuel, one.licence_status!, one.body_type],
    );
    expect(got.map((x) => x.count)).toContain(one.count);
    // GB VEH0120 has only Q4 before 2008 Q3: no other quarter ends there
    const [old] = await sqlOn(path, "SELECT count(*) AS n FROM licensing WHERE quarter < DATE '2008-07-01' AND month(quarter) <> 12");
    expect(old!.n).toBe(0);
    // no zero counts, no markers
    const [z] = await sqlOn(path, 'SELECT count(*) AS n FROM licensing WHERE count <= 0');
    expect(z!.n).toBe(0);
    // makes table: distinct makes per dataset
    const makes = await sqlOn(path, "SELECT make FROM makes WHERE dataset = 'licensing' ORDER BY make");
    expect(makes.map((m) => m.make)).toEqual([...new Set(lic.map((x) => x.make))].sort());
    // series numbered 1..n in make order (then geography), counts stored in series and quarter order, so a
    // make's counts are one run of row groups (the files list rows by body type, not make)
    for (const t of ['licensing', 'registrations']) {
      const [s] = await sqlOn(
        path,
        `SELECT count(*) AS n, min(series_id) AS lo, max(series_id) AS hi,
           count(*) FILTER (WHERE pm > make OR (pm = make AND pg > geography)) AS unordered
         FROM (SELECT series_id, make, geography, lag(make) OVER w AS pm, lag(geography) OVER w AS pg FROM ${t}_series WINDOW w AS (ORDER BY series_id))`,
      );
      expect([s!.lo, s!.hi, s!.unordered]).toEqual([1, s!.n, 0]);
      const [c] = await sqlOn(
        path,
        `SELECT count(*) FILTER (WHERE ps > series_id OR (ps = series_id AND pq >= quarter)) AS unordered
         FROM (SELECT series_id, quarter, lag(series_id) OVER w AS ps, lag(quarter) OVER w AS pq FROM ${t}_counts WINDOW w AS (ORDER BY rowid))`,
      );
      expect(c!.unordered).toBe(0);
    }
    const firstMakes = await sqlOn(path, 'SELECT make FROM licensing_series ORDER BY series_id LIMIT 1');
    expect(firstMakes[0]!.make).toBe([...new Set(lic.map((x) => x.make))].sort()[0]);
  });

  it('drops blank, zero and marker cells, rejects a row with a malformed count, keeps quoted commas and quotes', async () => {
    const qs = vehQuarters('licensing', 'GB', '2026 Q1', '2025 Q2');
    const header = ['BodyType', 'Make', 'GenModel', 'Model', 'Fuel', 'LicenceStatus', ...qs].join(',');
    const lines = [
      header,
      'Cars,FORD,FORD TRANSIT,"TRANSIT 350 L3, H2",DIESEL,Licensed,12,[c],[x],0',
      'Cars,FORD,FORD TRANSIT,"TRANSIT 350 L3, H2",DIESEL,SORN,[low],,3,[z]',
      'Cars,KIA,KIA SPORTAGE,"SPORTAGE ""GT"" LINE",PETROL,Licensed,"1,204",7,7,7',
      'Cars,KIA,KIA NIRO,NIRO 2,PETROL,Licensed,5,12a,1,1',
    ];
    // 150 plain rows so one reject stays under the 1% threshold
    for (let i = 0; i < 150; i++) lines.push(`Cars,AUDI,AUDI A${i},A${i} SPORT,PETROL,Licensed,1,1,1,1`);
    const o = h.syncOptions();
    const dir = tempDir('pd-veh-files-');
    const file = join(dir, 'df_VEH0120_GB.csv');
    writeFileSync(file, lines.join('\n') + '\n');
    const r = await syncDataset('vehicle-licensing', { ...o, from: file });
    expect(r.rows_rejected).toBe(1);
    const rows = await sqlOn(r.path!, "SELECT quarter, licence_status, model, count FROM licensing WHERE make IN ('FORD', 'KIA') ORDER BY make, licence_status, quarter DESC");
    expect(rows).toEqual([
      { quarter: '2026-03-31', licence_status: 'Licensed', model: 'TRANSIT 350 L3, H2', count: 12 },
      { quarter: '2025-09-30', licence_status: 'SORN', model: 'TRANSIT 350 L3, H2', count: 3 },
      { quarter: '2026-03-31', licence_status: 'Licensed', model: 'SPORTAGE "GT" LINE', count: 1204 },
      { quarter: '2025-12-31', licence_status: 'Licensed', model: 'SPORTAGE "GT" LINE', count: 7 },
      { quarter: '2025-09-30', licence_status: 'Licensed', model: 'SPORTAGE "GT" LINE', count: 7 },
      { quarter: '2025-06-30', licence_status: 'Licensed', model: 'SPORTAGE "GT" LINE', count: 7 },
    ]);
    const rej = await sqlOn(r.path!, 'SELECT file, line, reason FROM rejects');
    expect(rej).toEqual([{ file: 'df_VEH0120_GB.csv', line: 5, reason: 'a count that is not a whole number, blank or one of [c] [x] [z] [low]' }]);
  });

  it('--from one file adds registrations and keeps the licensing data of the previous sync', async () => {
    serveAll('/vehicle-licensing');
    const o = h.syncOptions();
    const dir = tempDir('pd-veh-from-');
    const lic = gen[0]!;
    writeFileSync(join(dir, lic.name), vehCsv(lic.data));
    const first = await syncDataset('vehicle-licensing', { ...o, from: join(dir, lic.name) });
    expect(await tableSummary(first.path!, 'registrations')).toEqual({ n: 0, total: 0 });
    const reg = gen[3]!;
    writeFileSync(join(dir, reg.name), vehCsv(reg.data));
    const second = await syncDataset('vehicle-licensing', { ...o, from: [join(dir, reg.name)] });
    expect(await tableSummary(second.path!, 'licensing')).toEqual(summary(expectedOf('licensing', ['GB'])));
    expect(await tableSummary(second.path!, 'registrations')).toEqual(summary(expectedOf('registrations', ['UK'])));
    expect(second.rows_total).toBe(expectedOf('licensing', ['GB']).length + expectedOf('registrations', ['UK']).length);
  });

  it('--from a folder takes the files named as the publisher names them; a URL prefix serves those names', async () => {
    const dir = tempDir('pd-veh-dir-');
    for (const g of gen) writeFileSync(join(dir, g.name), vehCsv(g.data));
    writeFileSync(join(dir, 'notes.txt'), 'not a data file');
    const r = await syncDataset('vehicle-licensing', { ...h.syncOptions(), from: dir });
    expect(r.files.map((f) => f.name).sort()).toEqual(gen.map((g) => g.name).sort());
    expect(await tableSummary(r.path!, 'licensing')).toEqual(summary(expectedOf('licensing')));

    for (const g of gen) h.server.set(`/mirror/veh/${g.name}`, vehCsv(g.data));
    const p = await syncDataset('vehicle-licensing', { ...h.syncOptions(), from: `${h.server.url}/mirror/veh/` });
    expect(p.files.map((f) => f.url)).toEqual(gen.map((g) => `${h.server.url}/mirror/veh/${g.name}`));
    expect(await tableSummary(p.path!, 'registrations')).toEqual(summary(expectedOf('registrations')));
  });

  it('refuses a VEH0120 file without LicenceStatus and a file whose name gives no geography', async () => {
    const dir = tempDir('pd-veh-bad-');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'df_VEH0120_GB.csv'), 'BodyType,Make,GenModel,Model,Fuel,2026 Q1\nCars,FORD,FORD FIESTA,FIESTA,PETROL,1\n');
    await expect(syncDataset('vehicle-licensing', { ...h.syncOptions(), from: join(dir, 'df_VEH0120_GB.csv') })).rejects.toThrow(/header lacks LicenceStatus/);
    writeFileSync(join(dir, 'licensed.csv'), 'BodyType,Make,GenModel,Model,Fuel,LicenceStatus,2026 Q1\n');
    await expect(syncDataset('vehicle-licensing', { ...h.syncOptions(), from: join(dir, 'licensed.csv') })).rejects.toThrow(/not a vehicle licensing data file name/);
  });
});
