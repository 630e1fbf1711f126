/**
 * Staging of extracted accounts: one extractor run per member, its rows appended to CSV files that DuckDB
 * then loads with read_csv (never row-by-row inserts). Runs inside a worker thread (sync/accounts/extract-worker.ts)
 * or, when no compiled worker exists (tests from sources), on the calling thread: the same code either way.
 *
 * A member of a zip is inflated here, from its offset in the zip (the main thread only reads the zip's
 * central directory and hands out entries), so with N workers the inflating is spread over N threads too.
 * A nested `*_CIC.zip` is opened in memory and its accounts document(s) extracted in the same place.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { listEntries, readEntry, ZipError, type ZipEntry } from '../../../../../sync/formats/zip.js';
import { penceToText } from '../../../../money.js';
import { extractDocument, sniff, type Filing, type PeriodRow } from './extract.js';

interface JobSource {
  /** Member name in the zip (the nested CIC path for CIC members). */
  name: string;
  zip: string;
  published: string;
  precision: 'day' | 'month';
}

/**
 * One member to extract and where it came from: a member of a zip file (`zipPath` + its directory
 * `entry`), or a file on disk (`path`, deleted once read: a single document given with --from).
 */
export type MemberJob = JobSource & ({ zipPath: string; entry: ZipEntry; path?: undefined } | { path: string; zipPath?: undefined });

/** Documents inside a nested `*_CIC.zip`: the accounts (`accounts/…`), not the CIC34 report (`cic34/…`). */
export const isCicDocument = (name: string) => !/(^|\/)cic34\//i.test(name) && /\.(x?html?|xml)$/i.test(name);

export interface Reject {
  file: string;
  reason: string;
}

export interface BatchResult {
  filings: number;
  periods: number;
  rejects: Reject[];
}

export const FILING_COLUMNS = [
  'filing_id', 'company_number', 'company_name', 'balance_sheet_date', 'period_start', 'filing_type', 'accounting_standard',
  'dormant', 'format', 'date_authorised', 'published', 'published_precision', 'source_zip', 'facts', 'duplicates',
  'conflicts', 'conflict_detail', 'has_financials',
] as const;

const MONEY = [
  'revenue', 'cost_of_sales', 'gross_profit', 'profit_before_tax', 'fixed_assets', 'current_assets', 'current_liabilities',
  'net_current_assets', 'total_assets_less_current_liabilities', 'total_assets', 'cash', 'net_assets', 'directors_remuneration',
] as const satisfies ReadonlyArray<keyof PeriodRow>;

export const PERIOD_COLUMNS = [
  'filing_id', 'company_number', 'period_end', 'period_start', 'is_current', ...MONEY, 'current_liabilities_basis',
  'total_assets_basis', 'net_assets_concept', 'employees',
] as const;

/** DuckDB types of the staged columns (read_csv `columns`). */
export const COLUMN_TYPES: Record<string, string> = {
  filing_id: 'VARCHAR', company_number: 'VARCHAR', company_name: 'VARCHAR', balance_sheet_date: 'DATE', period_start: 'DATE',
  filing_type: 'VARCHAR', accounting_standard: 'VARCHAR', dormant: 'BOOLEAN', format: 'VARCHAR', date_authorised: 'DATE',
  published: 'DATE', published_precision: 'VARCHAR', source_zip: 'VARCHAR', facts: 'INTEGER', duplicates: 'INTEGER',
  conflicts: 'INTEGER', conflict_detail: 'VARCHAR', has_financials: 'BOOLEAN', period_end: 'DATE', is_current: 'BOOLEAN',
  current_liabilities_basis: 'VARCHAR', total_assets_basis: 'VARCHAR', net_assets_concept: 'VARCHAR', employees: 'BIGINT',
  ...Object.fromEntries(MONEY.map((m) => [m, 'DECIMAL(18,2)'])),
};

/** A CSV field: null empty (unquoted, read as NULL), strings quoted with quotes doubled. */
function str(v: string | null): string {
  return v === null ? '' : `"${v.replace(/"/g, '""')}"`;
}
const num = (v: bigint | number | boolean | null): string => (v === null ? '' : String(v));
const money = (v: bigint | null): string => (v === null ? '' : penceToText(v));

/** Whether a filing carries any of the figures the recent-filings `has_financials` flag means. */
export function hasFinancials(f: Filing): boolean {
  const p = f.periods.find((x) => x.is_current);
  return !!p && [p.revenue, p.cost_of_sales, p.gross_profit, p.profit_before_tax, p.total_assets, p.net_assets].some((v) => v !== null);
}

export function filingLine(id: string, f: Filing, job: Pick<MemberJob, 'zip' | 'published' | 'precision'>): string {
  return [
    str(id), str(f.company_number), str(f.company_name), f.balance_sheet_date, f.period_start ?? '', str(f.filing_type),
    str(f.accounting_standard), num(f.dormant), f.format, f.date_authorised ?? '', job.published, job.precision, str(job.zip),
    f.facts, f.duplicates, f.conflicts.length, f.conflicts.length ? str(JSON.stringify(f.conflicts)) : '', hasFinancials(f),
  ].join(',');
}

export function periodLine(id: string, company: string, p: PeriodRow): string {
  return [
    str(id), str(company), p.period_end, p.period_start ?? '', p.is_current, ...MONEY.map((m) => money(p[m])),
    str(p.current_liabilities_basis), str(p.total_assets_basis), str(p.net_assets_concept), num(p.employees),
  ].join(',');
}

/** Appends lines to a file through a 1 MB buffer. */
class LineWriter {
  private fd: number;
  private buf: string[] = [];
  private size = 0;
  constructor(path: string) {
    this.fd = openSync(path, 'a');
  }
  add(line: string): void {
    this.buf.push(line);
    this.size += line.length + 1;
    if (this.size > 1 << 20) this.flush();
  }
  flush(): void {
    if (this.buf.length) writeSync(this.fd, this.buf.join('\n') + '\n');
    this.buf = [];
    this.size = 0;
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** The staging files of one extractor (one per worker), and the zips it reads members from. */
export class Stager {
  private filings: LineWriter;
  private periods: LineWriter;
  /** The zip members are read from: one handle, closed when the jobs move on to the next zip (or on close). */
  private zip: { path: string; fd: number } | undefined;
  constructor(readonly filingsPath: string, readonly periodsPath: string) {
    this.filings = new LineWriter(filingsPath);
    this.periods = new LineWriter(periodsPath);
  }

  /** Extract a batch. Throws (fails the sync) only when a zip itself is unreadable, never for a bad member. */
  async run(jobs: MemberJob[]): Promise<BatchResult> {
    const out: BatchResult = { filings: 0, periods: 0, rejects: [] };
    for (const job of jobs) {
      let bytes: Buffer;
      if (job.zipPath !== undefined) {
        bytes = readEntry(this.zipFd(job.zipPath), job.entry, job.zip);
      } else {
        try {
          bytes = readFileSync(job.path);
        } finally {
          rmSync(job.path, { force: true });
        }
      }
      if (/\.zip$/i.test(job.name) && sniff(bytes) === 'zip') await this.nested(bytes, job, out);
      else this.one(bytes, job, out);
    }
    return out;
  }

  /** The open handle of `path`; the previous zip's handle is closed first (a sync reads its zips in turn). */
  private zipFd(path: string): number {
    if (this.zip?.path === path) return this.zip.fd;
    this.closeZip();
    const fd = openSync(path, 'r');
    this.zip = { path, fd };
    return fd;
  }

  private closeZip(): void {
    if (!this.zip) return;
    const { fd } = this.zip;
    this.zip = undefined;
    closeSync(fd);
  }

  /** Open zip handles (0 or 1): for tests. */
  get openZips(): number {
    return this.zip ? 1 : 0;
  }

  /** A nested `*_CIC.zip`: its accounts document(s), or one reject for the whole member. */
  private async nested(zip: Buffer, job: MemberJob, out: BatchResult): Promise<void> {
    const file = `${job.zip}/${job.name}`;
    const docs: Array<{ name: string; bytes: Buffer }> = [];
    try {
      for await (const e of listEntries(zip, (m) => isCicDocument(m.name), job.name)) docs.push({ name: e.name, bytes: readEntry(zip, e, job.name) });
    } catch (e) {
      if (!(e instanceof ZipError)) throw e;
      out.rejects.push({ file, reason: `unreadable nested zip: ${e.message}` });
      return;
    }
    if (!docs.length) out.rejects.push({ file, reason: 'nested zip without an accounts document' });
    for (const d of docs) this.one(d.bytes, { ...job, name: `${job.name}/${d.name}` }, out);
  }

  private one(bytes: Buffer, job: MemberJob, out: BatchResult): void {
    const r = extractDocument(bytes, job.name);
    if (!r.ok) {
      out.rejects.push({ file: `${job.zip}/${job.name}`, reason: r.reason });
      return;
    }
    const id = job.name.split('/').pop()!;
    this.filings.add(filingLine(id, r.filing, job));
    out.filings++;
    for (const p of r.filing.periods) {
      this.periods.add(periodLine(id, r.filing.company_number, p));
      out.periods++;
    }
  }

  close(): void {
    this.filings.close();
    this.periods.close();
    this.closeZip();
  }
}
