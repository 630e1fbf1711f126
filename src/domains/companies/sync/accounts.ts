/**
 * `publicdata sync accounts [--days N | --months N] [--from FILE_OR_URL]`: Companies House Accounts Data
 * Product (electronically filed accounts as Inline XBRL / XBRL) into accounts.duckdb.
 *
 * Upstream (https://download.companieshouse.gov.uk):
 *   en_accountsdata.html                → Accounts_Bulk_Data-YYYY-MM-DD.zip (daily, last ~60 days)
 *   en_monthlyaccountsdata.html         → Accounts_Monthly_Data-<Month><YYYY>.zip (last 12 months)
 *   historicmonthlyaccountsdata.html    → archive/Accounts_Monthly_Data-<Month><YYYY>.zip (2008 onwards)
 * Each zip holds one document per filing, `Prod<run>_<n>_<company>_<YYYYMMDD>.{html,xml}` (the date is the
 * balance-sheet date; the publication date comes from the zip name), plus nested `*_CIC.zip` members.
 *
 * Scope: default the last 12 months (monthly archives for complete months, dailies after the newest
 * archive) = every e-filer's latest accounts; `--days N` takes the dailies of the last N days; `--months N`
 * widens (60 matches the live service's five years). A later sync adds only zips not loaded yet
 * (`accounts_zips`), as an incremental update of a copy of the live file.
 *
 * Load: the main thread reads each zip's central directory (sync/formats/zip.ts) and hands the entries to
 * worker threads (sync/accounts/pool.ts) that inflate, parse and write staging CSVs; DuckDB loads those
 * with read_csv. A
 * filing that appears twice (a daily zip and the monthly archive) is kept once, from the daily zip (exact
 * publication date). Broken members (binary, placeholder, malformed XML) go to `rejects` with a reason.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { query, queryOne } from '../../../mirror/db.js';
import { catalogFields, count } from '../../../../sync/common.js';
import { countEntries, isZipFile, listEntries } from '../../../../sync/formats/zip.js';
import { createPool, spawnWorkers, warmUpThreads, workerCount, type ExtractPool, type SpawnedWorkers } from './accounts/pool.js';
import { COLUMN_TYPES, FILING_COLUMNS, PERIOD_COLUMNS, type BatchResult, type MemberJob, type Reject } from './accounts/stage.js';
import type { DatasetModule, DiscoverContext, LoadContext, LoadResult, UpstreamFile } from '../../../../sync/types.js';
import { ACCOUNTS_INFO, ACCOUNTS_MONTHS } from '../datasets.js';

export const DEFAULT_BASE_URL = 'https://download.companieshouse.gov.uk';
export const DAILY_PAGE = 'en_accountsdata.html';
export const MONTHLY_PAGE = 'en_monthlyaccountsdata.html';
export const HISTORIC_PAGE = 'historicmonthlyaccountsdata.html';
export const DEFAULT_MONTHS = ACCOUNTS_MONTHS.default;

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export const FILINGS_DDL = `CREATE TABLE accounts_filings (
  filing_id           VARCHAR NOT NULL, -- member file name, e.g. Prod223_3517_00035838_20221231.html
  company_number      VARCHAR NOT NULL,
  company_name        VARCHAR,          -- as stated in the accounts
  balance_sheet_date  DATE    NOT NULL,
  period_start        DATE,
  filing_type         VARCHAR,          -- full, abridged, filleted, abbreviated, micro, dormant
  accounting_standard VARCHAR,          -- FRS 102, FRS 105, FRS 101, FRSSE, IFRS, ...
  dormant             BOOLEAN,
  format              VARCHAR NOT NULL, -- ixbrl or xbrl
  date_authorised     DATE,             -- approval of the accounts, when stated as a date
  published           DATE    NOT NULL, -- from the zip name: the day (daily) or the first of the month (monthly)
  published_precision VARCHAR NOT NULL, -- day or month
  source_zip          VARCHAR NOT NULL,
  facts               INTEGER NOT NULL,
  duplicates          INTEGER NOT NULL, -- facts stated more than once (same concept and context)
  conflicts           INTEGER NOT NULL, -- of those, with different values
  conflict_detail     VARCHAR,          -- JSON [{concept, context, values}]
  has_financials      BOOLEAN NOT NULL
)`;

const MONEY_DDL = (c: string) => `  ${c} DECIMAL(18,2),`;
export const PERIODS_DDL = `CREATE TABLE accounts_periods (
  filing_id   VARCHAR NOT NULL,
  company_number VARCHAR NOT NULL,
  period_end  DATE    NOT NULL,
  period_start DATE,
  is_current  BOOLEAN NOT NULL,   -- the filing's own period (else its comparative)
${PERIOD_COLUMNS.filter((c) => COLUMN_TYPES[c] === 'DECIMAL(18,2)').map(MONEY_DDL).join('\n')}
  current_liabilities_basis VARCHAR, -- reported, undimensioned, derived
  total_assets_basis VARCHAR,     -- reported, sum, talcl
  net_assets_concept VARCHAR,     -- NetAssetsLiabilities, ..., Equity
  employees   BIGINT
)`;

export const ZIPS_DDL = `CREATE TABLE IF NOT EXISTS accounts_zips (
  name      VARCHAR NOT NULL,
  url       VARCHAR NOT NULL,
  published DATE    NOT NULL,
  precision VARCHAR NOT NULL,
  documents INTEGER NOT NULL,
  rejected  INTEGER NOT NULL,
  loaded_at TIMESTAMP NOT NULL
)`;

// ---------------------------------------------------------------------------------------------------
// Discovery

export interface ZipLink {
  url: string;
  name: string;
  kind: 'daily' | 'monthly';
  /** daily: the day; monthly: the first of the month */
  date: string;
  /** Size from the link text ("(52Mb)"), when shown. */
  approxBytes?: number;
}

/** Publication date and precision from a zip's name; undefined for other names. */
export function zipDate(name: string): { date: string; precision: 'day' | 'month' } | undefined {
  const d = /Accounts_Bulk_Data-(\d{4}-\d{2}-\d{2})\.zip$/i.exec(name);
  if (d) return { date: d[1]!, precision: 'day' };
  const m = /Accounts_Monthly_Data-([A-Z][a-z]+?)(?:To[A-Z][a-z]+)?(\d{4})\.zip$/.exec(name);
  if (m) {
    const i = MONTH_NAMES.findIndex((x) => x.toLowerCase() === m[1]!.toLowerCase());
    if (i >= 0) return { date: `${m[2]}-${String(i + 1).padStart(2, '0')}-01`, precision: 'month' };
  }
  return undefined;
}

/** Every accounts zip linked from an index page (href and link text; sizes like "(52Mb)"). */
export function parseAccountsPage(html: string, pageUrl: string): ZipLink[] {
  const out: ZipLink[] = [];
  for (const m of html.matchAll(/<a\s[^>]*href\s*=\s*["']([^"']+\.zip)["'][^>]*>([\s\S]*?)<\/a>\s*(\(\s*[\d.]+\s*[KMG]b\s*\))?/gi)) {
    const href = m[1]!;
    const name = basename(href.split('?')[0]!);
    const d = zipDate(name);
    if (!d) continue;
    let url: string;
    try {
      url = new URL(href, pageUrl).toString();
    } catch {
      continue;
    }
    const sz = /([\d.]+)\s*([KMG])b/i.exec(`${m[2]} ${m[3] ?? ''}`);
    const approxBytes = sz ? Math.round(Number(sz[1]) * { K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[sz[2]!.toUpperCase() as 'K' | 'M' | 'G']) : undefined;
    out.push({ url, name, kind: d.precision === 'day' ? 'daily' : 'monthly', date: d.date, ...(approxBytes ? { approxBytes } : {}) });
  }
  return out;
}

const ymd = (d: Date) => d.toISOString().slice(0, 10);
function addMonths(d: Date, n: number): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1));
}

/**
 * The zips a scope needs. `days`: the dailies of the last N days. Otherwise `months` (default 12): the
 * monthly archives of the complete months in the window, then the dailies after the newest archive
 * (and any month in the window with no archive).
 */
export function selectZips(links: ZipLink[], now: Date, scope: { days?: number; months?: number }): ZipLink[] {
  const byName = new Map(links.map((l) => [l.name, l]));
  const all = [...byName.values()];
  const dailies = all.filter((l) => l.kind === 'daily').sort((a, b) => a.date.localeCompare(b.date));
  if (scope.days !== undefined) {
    const from = ymd(new Date(now.getTime() - scope.days * 86_400_000));
    return dailies.filter((l) => l.date > from);
  }
  const months = scope.months ?? DEFAULT_MONTHS;
  const windowStart = ymd(addMonths(now, -months));
  const monthlies = all.filter((l) => l.kind === 'monthly' && l.date >= windowStart).sort((a, b) => a.date.localeCompare(b.date));
  const covered = new Set(monthlies.map((l) => l.date.slice(0, 7)));
  const extra = dailies.filter((l) => l.date >= windowStart && !covered.has(l.date.slice(0, 7)));
  return [...monthlies, ...extra];
}

// ---------------------------------------------------------------------------------------------------
// Load

const readOpts = (cols: readonly string[]) =>
  `columns = {${cols.map((c) => `'${c}': '${COLUMN_TYPES[c]}'`).join(', ')}}, header = false, auto_detect = false, ` +
  `delim = ',', quote = '"', escape = '"', nullstr = '', dateformat = '%Y-%m-%d'`;

const FILINGS_ORDER = `ORDER BY (published_precision = 'day') DESC, published, filing_id`;

interface Staged {
  documents: number;
  rejects: Reject[];
  zips: Array<{ name: string; url: string; published: string; precision: string; documents: number; rejected: number }>;
}

/**
 * Members in the files, from each zip's end record (a single document counts one). A zip whose end record
 * cannot be read counts nothing here: extracting it reports the error.
 */
async function countDocuments(files: LoadContext['files']): Promise<number> {
  let n = 0;
  for (const f of files) {
    if (!isZipFile(f.path)) n++;
    else n += await countEntries(f.path).catch(() => 0);
  }
  return n;
}

/** Extract every member of the files through the pool; staging CSVs are left in `stageDir`. */
async function stageFiles(ctx: LoadContext, pool: ExtractPool, workDir: string): Promise<Staged> {
  const out: Staged = { documents: 0, rejects: [], zips: [] };
  const BATCH = 32;
  for (const f of ctx.files) {
    const when = zipDate(f.name) ?? (f.published ? { date: f.published, precision: 'day' as const } : undefined);
    const published = when?.date ?? ymd(new Date());
    const precision = when?.precision ?? 'day';
    const zipRejects: Reject[] = [];
    let docs = 0;
    let batch: MemberJob[] = [];
    const inflight: Array<Promise<void>> = [];
    // A batch that fails (a corrupt member: CRC or size mismatch, no local header) is handled the moment it
    // is submitted: the first error is kept, nothing more is submitted, and once the batches in flight have
    // settled it fails the load (a clean sync failure), never an unhandled rejection.
    let failure: { error: unknown } | undefined;
    const fail = async (): Promise<never> => {
      await Promise.all(inflight);
      throw failure!.error;
    };
    const flush = async () => {
      if (failure) await fail();
      if (!batch.length) return;
      const jobs = batch;
      batch = [];
      await pool.ready();
      if (failure) await fail();
      let submitted: Promise<BatchResult>;
      try {
        submitted = pool.submit(jobs);
      } catch (e) {
        submitted = Promise.reject(e);
      }
      inflight.push(
        submitted.then(
          (r) => {
            docs += r.filings;
            zipRejects.push(...r.rejects);
          },
          (error: unknown) => {
            failure ??= { error };
          },
        ),
      );
    };
    const add = async (job: MemberJob) => {
      batch.push(job);
      if (batch.length >= BATCH || failure) await flush();
    };
    const memberDir = join(workDir, 'members');
    if (isZipFile(f.path)) {
      // Only the central directory is read here; the workers inflate the members (nested *_CIC.zip too).
      ctx.log?.(`extracting ${f.name} (${pool.inThread ? 'in this thread' : `${pool.threads} worker thread${pool.threads === 1 ? '' : 's'}`})`);
      for await (const entry of listEntries(f.path, undefined, f.name)) {
        await add({ zipPath: f.path, entry, name: entry.name, zip: f.name, published, precision });
      }
    } else {
      // a single document given with --from
      const copy = join(memberDir, basename(f.path));
      mkdirSync(memberDir, { recursive: true });
      const { copyFileSync } = await import('node:fs');
      copyFileSync(f.path, copy);
      await add({ path: copy, name: basename(f.name), zip: basename(f.name), published, precision });
    }
    await flush();
    await Promise.all(inflight);
    if (failure) await fail();
    out.documents += docs;
    out.rejects.push(...zipRejects);
    out.zips.push({ name: f.name, url: f.url, published, precision, documents: docs, rejected: zipRejects.length });
    ctx.progress(out.documents);
    ctx.log?.(`${f.name}: ${docs} filings, ${zipRejects.length} rejected`);
  }
  return out;
}

async function load(ctx: LoadContext): Promise<LoadResult> {
  const { conn } = ctx;
  const incremental = ctx.mode === 'incremental';
  const workDir = join(dirname(ctx.files[0]!.path), `.accounts-stage-${process.pid}`);
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(join(workDir, 'stage'), { recursive: true });
  try {
    // the workers `warmUp` started at the beginning of the sync, if it could
    const spawned = ctx.warm as SpawnedWorkers | undefined;
    const threads = workerCount(ctx.env ?? {}, await countDocuments(ctx.files));
    const pool = await createPool(join(workDir, 'stage'), threads, spawned ? { spawned } : {});
    let staged: Staged;
    try {
      staged = await stageFiles(ctx, pool, workDir);
    } catch (e) {
      await pool.close().catch(() => undefined);
      throw e;
    }
    const files = await pool.close();
    // every worker's staging file at once (a glob: the pool names them filings-<n>.csv, periods-<n>.csv)
    await conn.run(`CREATE TEMP TABLE new_filings AS SELECT * FROM read_csv(?, ${readOpts(FILING_COLUMNS)})`, [join(files.dir, 'filings-*.csv')]);
    await conn.run(`CREATE TEMP TABLE new_periods AS SELECT * FROM read_csv(?, ${readOpts(PERIOD_COLUMNS)})`, [join(files.dir, 'periods-*.csv')]);
    await conn.run(ZIPS_DDL);
    if (!incremental) {
      await conn.run(FILINGS_DDL);
      await conn.run(PERIODS_DDL);
    }
    // One filing per (company, balance-sheet date): the daily zip's copy, else the earliest.
    await conn.run(`CREATE TEMP TABLE winners AS
      SELECT filing_id FROM (
        SELECT filing_id, company_number, balance_sheet_date, published, published_precision FROM new_filings
        UNION ALL
        SELECT f.filing_id, f.company_number, f.balance_sheet_date, f.published, f.published_precision
        FROM accounts_filings f SEMI JOIN new_filings n USING (company_number, balance_sheet_date)
      ) QUALIFY row_number() OVER (PARTITION BY company_number, balance_sheet_date ${FILINGS_ORDER}) = 1`);
    await conn.run('BEGIN TRANSACTION');
    // existing filings that lost to a new copy
    await conn.run(`CREATE TEMP TABLE losers AS SELECT f.filing_id FROM accounts_filings f
      SEMI JOIN new_filings n USING (company_number, balance_sheet_date) ANTI JOIN winners w USING (filing_id)`);
    await conn.run('DELETE FROM accounts_periods WHERE filing_id IN (SELECT filing_id FROM losers)');
    await conn.run('DELETE FROM accounts_filings WHERE filing_id IN (SELECT filing_id FROM losers)');
    await conn.run(`INSERT INTO accounts_filings SELECT * FROM new_filings SEMI JOIN winners USING (filing_id)
      ORDER BY company_number, balance_sheet_date`);
    await conn.run(`INSERT INTO accounts_periods SELECT * FROM new_periods SEMI JOIN winners USING (filing_id)
      ORDER BY company_number, period_end`);
    const loadedAt = new Date().toISOString().replace('T', ' ').replace('Z', '');
    for (const z of staged.zips) {
      await conn.run('DELETE FROM accounts_zips WHERE name = ?', [z.name]);
      await conn.run('INSERT INTO accounts_zips VALUES (?, ?, CAST(? AS DATE), ?, ?, ?, CAST(? AS TIMESTAMP))',
        [z.name, z.url, z.published, z.precision, z.documents, z.rejected, loadedAt]);
    }
    // in the same transaction: one commit (one WAL fsync) rather than one per reject (50 rejects: 221-310 ms
    // as autocommits, 65-76 ms in one transaction, measured on the loaded machine)
    for (const r of staged.rejects.slice(0, 10_000)) {
      await conn.run('INSERT INTO rejects (file, line, raw, reason) VALUES (?, NULL, NULL, ?)', [r.file, r.reason]);
    }
    await conn.run('COMMIT');
    const added = await count(conn, 'SELECT count(*) AS n FROM new_filings SEMI JOIN winners USING (filing_id)');
    // the companies this sync touched: an incremental verify checks those, not the whole mirror
    await conn.run('CREATE OR REPLACE TEMP TABLE accounts_touched AS SELECT DISTINCT company_number FROM new_filings');
    for (const t of ['new_filings', 'new_periods', 'winners', 'losers']) await conn.run(`DROP TABLE ${t}`);
    const asOf = (await queryOne<{ d: string | null }>(conn, 'SELECT max(published)::VARCHAR AS d FROM accounts_zips'))?.d;
    const rows = incremental ? added : await count(conn, 'SELECT count(*) AS n FROM accounts_filings');
    ctx.log?.(`${staged.documents} documents read, ${rows} filings ${incremental ? 'added' : 'loaded'}, ${staged.rejects.length} rejected`);
    return { rows, rejected: staged.rejects.length, mode: incremental ? 'incremental' : 'full', ...(asOf ? { asOf } : {}) };
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------

const accounts: DatasetModule & { classifyFrom(name: string): Pick<UpstreamFile, 'kind' | 'published'> } = {
  ...catalogFields(ACCOUNTS_INFO),
  defaultBaseUrl: DEFAULT_BASE_URL,
  // Broken members are expected (a few per daily zip); a zip that is mostly unreadable is not.
  rejectThreshold: 0.5,
  memoryLimit: 'auto',
  tables: ['accounts_filings'],
  // `--from <folder>`: the daily and monthly zips in it
  fromNames: /^Accounts_(Bulk|Monthly)_Data-.+\.zip$/,

  // The extraction workers start with the sync: their start-up overlaps the history read, discovery and
  // the download instead of coming after them.
  warmUp(env: Readonly<Record<string, string | undefined>>) {
    return spawnWorkers(warmUpThreads(env));
  },

  // The zips already loaded, on the framework's one read-only open of the live file.
  async readPrevious(conn: DuckDBConnection) {
    return (await query<{ name: string }>(conn, 'SELECT name FROM accounts_zips')).map((r) => r.name);
  },

  // `--from` a zip adds it to the zips already loaded (the framework's default for this dataset; --replace replaces)
  fromAdds: () => true,

  classifyFrom(name: string) {
    const d = zipDate(name);
    return { kind: 'full', ...(d ? { published: d.date } : {}) };
  },

  async discover(ctx: DiscoverContext): Promise<UpstreamFile[]> {
    const base = ctx.baseUrl;
    const now = ctx.now();
    const scope = { ...(ctx.options.days !== undefined ? { days: ctx.options.days } : {}), ...(ctx.options.months !== undefined ? { months: ctx.options.months } : {}) };
    const pages = [DAILY_PAGE, ...(scope.days === undefined ? [MONTHLY_PAGE] : [])];
    // Older than the monthly page's 12 months: the historic archive page too.
    if (scope.days === undefined && (scope.months ?? DEFAULT_MONTHS) > 12) pages.push(HISTORIC_PAGE);
    const links: ZipLink[] = [];
    const errors: string[] = [];
    for (const p of pages) {
      const url = `${base}/${p}`;
      try {
        links.push(...parseAccountsPage(await ctx.fetchText(url), url));
      } catch (e) {
        errors.push(`${url}: ${(e as Error).message}`);
      }
    }
    if (!links.length) {
      throw new Error(`no accounts zips found on the publisher's pages; use 'publicdata sync accounts --from <zip file or URL>'. ${errors.join('; ')}`);
    }
    let chosen = selectZips(links, now, scope);
    const loaded = ctx.options.force ? undefined : ctx.previous?.module; // readPrevious: the zips in the live file
    const already = new Set<string>(Array.isArray(loaded) ? loaded : []);
    const incremental = already.size > 0;
    if (incremental) chosen = chosen.filter((l) => !already.has(l.name));
    return chosen.map((l) => ({
      url: l.url, name: l.name, published: l.date, kind: incremental ? 'update' as const : 'full' as const,
      ...(l.approxBytes ? { approxBytes: l.approxBytes } : {}),
    }));
  },

  load,

  // A full load is checked whole. An incremental one only adds and replaces rows of the companies in its
  // new zips (the rest of the file was checked when it was loaded), so it checks those companies: the
  // cost follows the new data, not the size of the mirror.
  async verify(conn: DuckDBConnection, result: LoadResult): Promise<void> {
    const incremental = result.mode === 'incremental';
    if (!incremental) {
      const filings = await count(conn, 'SELECT count(*) AS n FROM accounts_filings');
      if (filings === 0) throw new Error('no filings could be read from the zip(s)');
    }
    const scope = incremental ? ' SEMI JOIN accounts_touched USING (company_number)' : '';
    const orphans = await count(conn, `SELECT count(*) AS n FROM accounts_periods p${scope} ANTI JOIN accounts_filings f USING (filing_id)`);
    if (orphans) throw new Error(`${orphans} period rows without their filing`);
    const dup = await count(conn, `SELECT count(*) AS n FROM (SELECT company_number, balance_sheet_date FROM accounts_filings${scope} GROUP BY ALL HAVING count(*) > 1)`);
    if (dup) throw new Error(`${dup} filings stored twice`);
    await conn.run('DROP TABLE IF EXISTS accounts_touched');
  },
};

export default accounts;
export { accounts };
