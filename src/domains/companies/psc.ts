/**
 * /v1/companies/{n}/psc, /psc/changes, /network and /timeline, answered from the `psc` dataset (the PSC
 * snapshot, sync/psc.ts) with names and statuses from `companies` when it is synced (null otherwise,
 * with a meta note). Derivations and differences from live: docs/companies.md.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Handler, HandlerContext, Meta } from '../../contract/types.js';
import { openDataset, provenanceMeta, query, type Row } from '../../mirror/db.js';
import { accountsEvents, accountsNote } from './accounts-link.js';
import {
  COMPANIES, companyIfSynced, companyNotFound, companyNumber, departedNote, has, LIVE_HINT, PSC, type CompanyRow,
} from './common.js';

interface PscRow extends Row {
  psc_type: string;
  kind: string;
  name: string | null;
  nationality: string | null;
  country_of_residence: string | null;
  natures_of_control: string[] | null;
  notified_on: string | null;
  ceased_on: string | null;
  ceased: boolean;
  identity_key: string | null;
  registration_number: string | null;
}

const PSC_COLUMNS = `psc_type, kind, name, nationality, country_of_residence, natures_of_control, notified_on, ceased_on, ceased, identity_key, registration_number`;

/** Person records of a company (statements and exemptions excluded): active first, newest notification first. */
async function personRows(conn: DuckDBConnection, n: string): Promise<PscRow[]> {
  return query<PscRow>(
    conn,
    `SELECT ${PSC_COLUMNS} FROM psc WHERE company_number = ? AND record_type = 'psc'
     ORDER BY ceased, notified_on DESC NULLS LAST, name NULLS LAST, kind`,
    [n],
  );
}

interface Subject {
  conn: DuckDBConnection;
  n: string;
  company?: CompanyRow;
  rows: PscRow[];
  meta: Meta;
}

/**
 * The PSC records of a company plus its register row when `companies` is synced. 404 when neither
 * dataset knows the number (a company with no PSC records but on the register answers with none).
 */
async function subject(req: { params: Record<string, unknown> }, ctx: HandlerContext, extraNotes: Array<string | undefined> = []): Promise<Subject> {
  const n = companyNumber(req.params.company_number);
  const conn = await openDataset(PSC, ctx.mirrorDir);
  const rows = await personRows(conn, n);
  const company = await companyIfSynced(ctx, n);
  const m = await provenanceMeta(PSC, conn);
  if (!rows.length && !company) {
    const anyRecord = await query(conn, 'SELECT 1 FROM psc WHERE company_number = ? LIMIT 1', [n]);
    if (!anyRecord.length) throw companyNotFound(n, m.as_of ?? undefined);
  }
  const notes = [
    !has(ctx, COMPANIES) ? `company names and statuses come from the companies dataset, which is not synced ('publicdata sync companies'): null here.` : undefined,
    has(ctx, COMPANIES) && !company ? notInRegisterNote(n) : undefined,
    company?.gone_by !== undefined && company ? departedNote(company) : undefined,
    rows.some((r) => r.psc_type.startsWith('super_secure'))
      ? 'super-secure PSCs are published without name, nationality or dates: those fields are null.'
      : undefined,
    ...extraNotes,
  ].filter(Boolean);
  return { conn, n, ...(company ? { company } : {}), rows, meta: notes.length ? { ...m, note: notes.join(' ') } : m };
}

/** A company with PSC records that the loaded register snapshot does not hold (docs/companies.md). */
function notInRegisterNote(n: string): string {
  return `company ${n} is not in the loaded register snapshot (the companies dataset): company_name is null.`;
}

function pscRecord(r: PscRow) {
  return {
    psc_type: r.psc_type,
    kind: r.kind,
    name: r.name,
    nationality: r.nationality,
    country_of_residence: r.country_of_residence,
    natures_of_control: r.natures_of_control ?? [],
    notified_on: r.notified_on,
    ceased_on: r.ceased_on,
  };
}

/** GET /v1/companies/{company_number}/psc */
export const companyPsc: Handler = async (req, ctx) => {
  const s = await subject(req, ctx);
  return {
    data: { company_number: s.n, company_name: s.company?.company_name ?? null, psc_count: s.rows.length, psc_records: s.rows.map(pscRecord) },
    meta: s.meta,
  };
};

interface ChangeEvent {
  event: 'appointed' | 'ceased';
  date: string;
  name: string | null;
  psc_type: string;
  natures_of_control?: string[];
}

/** Events from notified_on (appointed) and ceased_on (ceased), oldest first; same day: appointed first, then by name. */
export function changeEvents(rows: PscRow[]): ChangeEvent[] {
  const out: ChangeEvent[] = [];
  for (const r of rows) {
    if (r.notified_on) out.push({ event: 'appointed', date: r.notified_on, name: r.name, psc_type: r.psc_type, natures_of_control: r.natures_of_control ?? [] });
    if (r.ceased_on) out.push({ event: 'ceased', date: r.ceased_on, name: r.name, psc_type: r.psc_type });
  }
  const order = { appointed: 0, ceased: 1 };
  return out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : order[a.event] - order[b.event] || (a.name ?? '').localeCompare(b.name ?? '')));
}

/** GET /v1/companies/{company_number}/psc/changes */
export const companyPscChanges: Handler = async (req, ctx) => {
  const s = await subject(req, ctx, ['Events are derived from the notified and ceased dates in the PSC snapshot (ceased PSCs stay in it).']);
  const events = changeEvents(s.rows);
  return {
    data: { company_number: s.n, company_name: s.company?.company_name ?? null, total_events: events.length, events },
    meta: s.meta,
  };
};

/** GET /v1/companies/{company_number}/network */
export const companyNetwork: Handler = async (req, ctx) => {
  const s = await subject(req, ctx, [
    'Related companies share a controller: corporate controllers matched on registration number, individuals on forename, surname and month and year of birth (a heuristic: the register has no person identifier).',
  ]);
  const active = s.rows.filter((r) => !r.ceased);
  const related: Array<{ controller_name: string | null; companies: Array<{ company_number: string; company_name: string | null; company_status: string | null }> }> = [];
  const all = new Set<string>();
  const names = has(ctx, COMPANIES) ? await openDataset(COMPANIES, ctx.mirrorDir) : undefined;
  for (const r of active) {
    const numbers = new Set<string>();
    if (r.identity_key) {
      const links = await query<{ company_number: string }>(
        s.conn,
        'SELECT DISTINCT company_number FROM psc_by_identity WHERE identity_key = ? AND NOT ceased AND company_number <> ? ORDER BY company_number',
        [r.identity_key, s.n],
      );
      for (const l of links) numbers.add(l.company_number);
    }
    // A corporate controller that is itself a UK company is part of the network too.
    if (r.registration_number && /^([A-Z]{2}\d{6}|\d{8})$/.test(r.registration_number) && r.registration_number !== s.n) numbers.add(r.registration_number);
    if (!numbers.size) continue;
    const list = [...numbers].sort();
    for (const x of list) all.add(x);
    related.push({ controller_name: r.name, companies: await companyNames(names, list) });
  }
  const unnamed = names ? related.flatMap((g) => g.companies).filter((c) => c.company_name === null).map((c) => c.company_number) : [];
  const meta = unnamed.length
    ? { ...s.meta, note: [s.meta.note, `related companies not in the loaded register snapshot have a null company_name and company_status: ${[...new Set(unnamed)].join(', ')}.`].filter(Boolean).join(' ') }
    : s.meta;
  return {
    data: {
      company_number: s.n,
      company_name: s.company?.company_name ?? null,
      psc_count: s.rows.length,
      controllers: active.map((r) => ({ name: r.name, psc_type: r.psc_type, nationality: r.nationality, natures_of_control: r.natures_of_control ?? [] })),
      related_companies: related,
      network_size: all.size,
    },
    meta,
  };
};

async function companyNames(
  conn: DuckDBConnection | undefined,
  numbers: string[],
): Promise<Array<{ company_number: string; company_name: string | null; company_status: string | null }>> {
  const known = new Map<string, { company_name: string; company_status: string }>();
  if (conn && numbers.length) {
    const marks = numbers.map(() => '?').join(', ');
    const rows = await query<{ company_number: string; company_name: string; company_status: string }>(
      conn,
      `SELECT company_number, company_name, company_status FROM companies WHERE company_number IN (${marks})
       UNION ALL SELECT company_number, company_name, 'dissolved' FROM departed WHERE company_number IN (${marks})`,
      [...numbers, ...numbers],
    );
    for (const r of rows) if (!known.has(r.company_number)) known.set(r.company_number, r);
  }
  return numbers.map((n) => ({ company_number: n, company_name: known.get(n)?.company_name ?? null, company_status: known.get(n)?.company_status ?? null }));
}

interface TimelineEvent {
  date: string;
  type: 'incorporation' | 'accounts_filed' | 'psc_notified' | 'psc_ceased' | 'cessation';
  description: string;
  details?: Record<string, unknown>;
}

/**
 * GET /v1/companies/{company_number}/timeline, newest first: incorporation and cessation from the register
 * (`companies`), PSC events from `psc` when synced, accounts filings from `accounts` when synced.
 */
export const companyTimeline: Handler = async (req, ctx) => {
  const n = companyNumber(req.params.company_number);
  const conn = await openDataset(COMPANIES, ctx.mirrorDir);
  const m = await provenanceMeta(COMPANIES, conn);
  const company = await companyIfSynced(ctx, n);
  if (!company) throw companyNotFound(n, m.as_of ?? undefined);
  const events: TimelineEvent[] = [];
  if (company.incorporation_date) events.push({ date: company.incorporation_date, type: 'incorporation', description: `${company.company_name} incorporated` });
  if (company.dissolution_date) {
    events.push({ date: company.dissolution_date, type: 'cessation', description: `${company.company_name} dissolved` });
  } else if (company.gone_by) {
    events.push({
      date: company.gone_by,
      type: 'cessation',
      description: `${company.company_name} left the register (dissolved, closed or converted) between ${company.last_seen ?? 'an earlier snapshot'} and ${company.gone_by}`,
      details: { date_precision: 'snapshot', last_seen_on_register: company.last_seen ?? null },
    });
  }
  if (has(ctx, PSC)) {
    const rows = await personRows(await openDataset(PSC, ctx.mirrorDir), n);
    for (const r of rows) {
      const who = r.name ?? 'a super-secure person';
      if (r.notified_on) events.push({ date: r.notified_on, type: 'psc_notified', description: `PSC notified: ${who}`, details: { name: r.name, psc_type: r.psc_type } });
      if (r.ceased_on) events.push({ date: r.ceased_on, type: 'psc_ceased', description: `PSC ceased: ${who}`, details: { name: r.name, psc_type: r.psc_type } });
    }
  }
  events.push(...(await accountsEvents(ctx, n)));
  const rank: Record<TimelineEvent['type'], number> = { cessation: 0, accounts_filed: 1, psc_ceased: 2, psc_notified: 3, incorporation: 4 };
  events.sort((a, b) => (a.date > b.date ? -1 : a.date < b.date ? 1 : rank[a.type] - rank[b.type] || a.description.localeCompare(b.description)));
  const notes = [
    'Confirmation statements, officer appointments, charges and paper filings are in no Companies House bulk file, so they are not in this timeline; ' + `${LIVE_HINT}.`,
    has(ctx, PSC) ? undefined : "PSC events come from the psc dataset, which is not synced ('publicdata sync psc').",
    accountsNote(ctx, 'accounts_filed events'),
    company.gone_by !== undefined ? departedNote(company) : undefined,
  ].filter(Boolean);
  return {
    data: { company_number: n, company_name: company.company_name, event_count: events.length, events },
    meta: { ...m, note: notes.join(' ') },
  };
};
