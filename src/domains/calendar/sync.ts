/**
 * `publicdata sync bank-holidays`: GOV.UK's https://www.gov.uk/bank-holidays.json into bank_holidays.duckdb.
 * Table `bank_holidays(date DATE, title, region, notes, bunting)` with our region slugs (england_and_wales,
 * scotland, northern_ireland) and notes NULL where GOV.UK has ''. The calendar handlers prefer this copy
 * to the snapshot shipped in data/calendar/bank-holidays.json.
 */
import { readFileSync } from 'node:fs';
import { normaliseGovUk, REGION_SLUGS } from './holidays.js';
import { query } from '../../mirror/db.js';
import { catalogFields } from '../../../sync/common.js';
import type { DatasetModule, DiscoverContext, LoadContext, LoadResult, UpstreamFile } from '../../../sync/types.js';
import { BANK_HOLIDAYS_INFO } from './datasets.js';

export const BANK_HOLIDAYS_DDL = `CREATE TABLE bank_holidays (
  date    DATE    NOT NULL,
  title   VARCHAR NOT NULL,
  region  VARCHAR NOT NULL,  -- england_and_wales | scotland | northern_ireland
  notes   VARCHAR,           -- NULL where GOV.UK has ''
  bunting BOOLEAN NOT NULL
)`;

const bankHolidays: DatasetModule = {
  ...catalogFields(BANK_HOLIDAYS_INFO),
  defaultBaseUrl: 'https://www.gov.uk',
  tables: ['bank_holidays'],
  rejectThreshold: 0,

  async discover(ctx: DiscoverContext): Promise<UpstreamFile[]> {
    return [{ url: `${ctx.baseUrl.replace(/\/+$/, '')}/bank-holidays.json`, name: 'bank-holidays.json', kind: 'full' }];
  },

  async load(ctx: LoadContext): Promise<LoadResult> {
    const file = ctx.files[0];
    if (!file) throw new Error('bank-holidays: no file downloaded');
    const items = normaliseGovUk(JSON.parse(readFileSync(file.path, 'utf8')));
    await ctx.conn.run(BANK_HOLIDAYS_DDL);
    const chunk = 200;
    for (let i = 0; i < items.length; i += chunk) {
      const part = items.slice(i, i + chunk);
      const values = part.map(() => '(CAST(? AS DATE), ?, ?, ?, ?)').join(', ');
      const params = part.flatMap((h) => [h.date, h.title, h.region, h.notes, h.bunting]);
      await ctx.conn.run(`INSERT INTO bank_holidays VALUES ${values}`, params);
      ctx.progress(Math.min(i + chunk, items.length));
    }
    // No asOf: GOV.UK states no publication date in the file. The framework records the download's
    // Last-Modified (when sent) as published and as_of; provenance falls back to sync_log.synced_at.
    return { rows: items.length, rejected: 0, mode: 'full' };
  },

  async verify(conn): Promise<void> {
    const rows = await query<{ region: string; n: number }>(conn, 'SELECT region, count(*) AS n FROM bank_holidays GROUP BY region');
    for (const slug of REGION_SLUGS) {
      const r = rows.find((x) => x.region === slug);
      if (!r || r.n < 5) throw new Error(`bank-holidays: region ${slug} has ${r?.n ?? 0} holidays; refusing to replace the data`);
    }
  },
};

export default bankHolidays;
export { bankHolidays };
