/**
 * /v1/companies register routes answered from the `companies` dataset (sync/companies.ts): search, list,
 * detail, statistics, geography, filing-status and the register part of sector analytics. Derivations
 * and differences from the live service: docs/companies.md.
 */
import { pagination } from '../../contract/envelope.js';
import { errors } from '../../contract/errors.js';
import type { Handler, HandlerContext, Meta } from '../../contract/types.js';
import { openDataset, provenanceMeta, query, queryOne, Where } from '../../mirror/db.js';
import { classifyPostcode, postcodeCondition } from '../../mirror/postcode.js';
import { accountsNote, latestFiling, sectorFinancials } from './accounts-link.js';
import {
  COMPANIES, companyNotFound, companyNumber, daysBetween, departedNote, DEPARTED_ROW_COLUMNS, detail, findCompany, LIVE_HINT,
  ROW_COLUMNS, summary, today, type CompanyRow,
} from './common.js';
import { NAME_INDEX, NAME_INDEX_COLUMNS, normNameSql, SEARCH_COLUMNS } from './register-values.js';
import { parseSicCode, sectionDescription, sicCode } from './sic.js';

const DISSOLVED_NOTE =
  "Companies House's bulk file holds only the live register: dissolved companies are those seen leaving it between your monthly syncs " +
  `(the departed table), not the whole dissolved register; ${LIVE_HINT}.`;

async function conn(ctx: HandlerContext) {
  return openDataset(COMPANIES, ctx.mirrorDir);
}

async function baseMeta(ctx: HandlerContext, extra: Record<string, unknown> = {}): Promise<Meta> {
  return provenanceMeta(COMPANIES, await conn(ctx), extra);
}

const page = (q: Record<string, unknown>) => ({ page: Number(q.page ?? 1), perPage: Number(q.per_page ?? 25) });

/** The register (and departed companies) as one relation, with status 'dissolved' for departed rows. */
function source(status: unknown): string {
  const live = `SELECT ${ROW_COLUMNS}, name_norm FROM companies`;
  const gone = `SELECT ${DEPARTED_ROW_COLUMNS.replace(', last_seen, gone_by', '')}, name_norm FROM departed`;
  if (status === 'active') return `(${live} WHERE company_status = 'active')`;
  if (status === 'dissolved') return `(${gone})`;
  return `(${live} UNION ALL ${gone})`;
}

/**
 * GET /v1/companies/search?q&status&page&per_page. Matches: the normalised name contains the normalised
 * query. Ranked: exact normalised name, then prefix, then word prefix, then contains; within a rank active
 * companies first, then shorter names, then number. Through the word index, the matches are ranked on the
 * index's columns and only the page's rows are read from the register (by company number).
 */
export const companySearch: Handler = async (req, ctx) => {
  const raw = String(req.query.q ?? '').trim();
  if (raw.length < 2) throw errors.invalidParameter('q must be at least 2 characters.');
  const { page: p, perPage } = page(req.query);
  const c = await conn(ctx);
  const norm = (await queryOne<{ q: string }>(c, `SELECT ${normNameSql('$1')} AS q`, [raw]))?.q ?? '';
  const indexed = !!norm && (await hasNameIndex(c));
  const m = indexed ? indexedMatches(norm, req.query.status) : scannedMatches(norm, raw, req.query.status);
  const rank = `CASE WHEN ${m.col} = $1 THEN 0 WHEN starts_with(${m.col}, $1) THEN 1 WHEN contains(' ' || ${m.col}, ' ' || $1) THEN 2 ELSE 3 END`;
  const params = [m.q, ...m.params];
  const n = params.length;
  const ranked = await query<CompanyRow & { total: number }>(
    c,
    `SELECT *, count(*) OVER () AS total FROM (SELECT *, ${rank} AS _rank FROM (${m.sql}))
     ORDER BY _rank, active DESC, name_length, company_number
     LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...params, perPage, (p - 1) * perPage],
  );
  const total = ranked[0]?.total ?? (p > 1 ? (await queryOne<{ n: number }>(c, `SELECT count(*) AS n FROM (${m.sql})`, params))?.n ?? 0 : 0);
  const rows = indexed ? await pageRows(c, ranked.map((r) => r.company_number), req.query.status) : ranked;
  return {
    data: rows.map(summary),
    meta: await baseMeta(ctx, {
      query: raw,
      ranking: 'exact name, then prefix, then word prefix, then contains; active first; legal-form words (LTD, LIMITED, PLC, LLP) ignored',
      ...(req.query.status === 'dissolved' ? { note: DISSOLVED_NOTE } : {}),
    }),
    pagination: pagination(total, p, perPage),
  };
};

/**
 * The companies whose name matches, one row each: `sql` (with `$1` = `q`, then `params`) giving at least
 * `company_number`, `active` (company_status = 'active') and `name_length` (of company_name), and `col`,
 * the name column to rank on.
 */
interface Matches {
  sql: string;
  col: string;
  q: string;
  params: string[];
}

/** The index columns of departed companies (answered as dissolved, so never active). */
const DEPARTED_INDEX = NAME_INDEX_COLUMNS.replace('active', 'false AS active').replace('name_length', 'length(company_name) AS name_length');
/** Summary columns of departed companies (answered as dissolved), for search. */
const DEPARTED_SEARCH = SEARCH_COLUMNS.replace('company_status', "'dissolved' AS company_status");

/**
 * Whether the mirror has the name index (a mirror synced by an older version has not, or has the earlier
 * wide index without `name_length`: search scans instead).
 */
async function hasNameIndex(c: Awaited<ReturnType<typeof conn>>): Promise<boolean> {
  const r = await queryOne<{ n: number }>(
    c,
    "SELECT count(*) AS n FROM duckdb_columns() WHERE database_name = current_database() AND table_name = ? AND column_name = 'name_length'",
    [NAME_INDEX],
  );
  return (r?.n ?? 0) > 0;
}

/**
 * Matches through the word index (docs/companies.md "Search index"). A name contains a query of words
 * w1 .. wk (k >= 2) only if it has the word w2 (k > 2; any middle word will do, the longest is taken) or a
 * word starting with w2 (k = 2): that word range is read, then the contains test decides, so the match set
 * is exactly the scan's. A one-word query is contained in some word of the name: the index's word column
 * is scanned (words are short and repeat) and only the matching rows are read.
 */
function indexedMatches(q: string, status: unknown): Matches {
  const words = q.split(' ');
  let cond: string;
  let params: string[];
  if (words.length === 1) {
    cond = 'contains(word, $1)';
    params = [];
  } else if (words.length === 2) {
    // Words are [A-Z0-9]+, so every word starting with w2 sorts before w2 || '~'.
    cond = 'word >= $2 AND word < $3 AND starts_with(word, $2) AND contains(name_norm, $1)';
    params = [words[1]!, `${words[1]!}~`];
  } else {
    cond = 'word = $2 AND contains(name_norm, $1)';
    params = [words.slice(1, -1).sort((a, b) => b.length - a.length)[0]!];
  }
  const live = `SELECT DISTINCT ${NAME_INDEX_COLUMNS} FROM ${NAME_INDEX} WHERE ${cond}${status === 'active' ? ' AND active' : ''}`;
  const gone = `SELECT ${DEPARTED_INDEX} FROM departed WHERE contains(name_norm, $1)`;
  if (status === 'dissolved') return { sql: gone, col: 'name_norm', q, params: [] };
  return { sql: status === 'active' ? live : `${live} UNION ALL ${gone}`, col: 'name_norm', q, params };
}

/**
 * The answer rows of a page of indexed matches, in the page's order: looked up by company number in the
 * register (sorted on it, so each lookup reads one row group) and in `departed`.
 */
async function pageRows(c: Awaited<ReturnType<typeof conn>>, numbers: string[], status: unknown): Promise<CompanyRow[]> {
  if (!numbers.length) return [];
  const list = numbers.map(() => '?').join(', ');
  const live = `SELECT ${SEARCH_COLUMNS} FROM companies WHERE company_number IN (${list})`;
  const gone = `SELECT ${DEPARTED_SEARCH} FROM departed WHERE company_number IN (${list})`;
  const sql = status === 'dissolved' ? gone : status === 'active' ? live : `${live} UNION ALL ${gone}`;
  const found = await query<CompanyRow>(c, sql, sql === live || sql === gone ? numbers : [...numbers, ...numbers]);
  const byNumber = new Map(found.map((r) => [r.company_number, r]));
  return numbers.map((n) => byNumber.get(n)!);
}

/** Matches by a scan of the register (no index, or a query with no letters or digits such as '!!', which matches the raw upper-case name). */
function scannedMatches(norm: string, raw: string, status: unknown): Matches {
  const col = norm ? 'name_norm' : 'upper(company_name)';
  return {
    sql: `SELECT *, company_status = 'active' AS active, length(company_name) AS name_length FROM ${source(status)} WHERE contains(${col}, $1)`,
    col,
    q: norm || raw.toUpperCase(),
    params: [],
  };
}

/** A postcode area, district or sector (`EC`, `EC1`, `EC1A`, `EC1A 1`), else 400. */
function postcodePrefix(raw: unknown, field: string): string {
  const s = String(raw ?? '').trim().toUpperCase().replace(/\s+/g, ' ');
  if (!/^[A-Z]{1,2}(\d[A-Z\d]?( ?\d[A-Z]{0,2})?)?$/.test(s)) {
    throw errors.invalidParameter(`${field} must be a postcode area, district or sector, e.g. EC, EC1A or EC1A 1 (got '${String(raw ?? '')}').`);
  }
  return s;
}

/** GET /v1/companies?status&sic_code&postcode&page&per_page (ordered by company number). */
export const companyList: Handler = async (req, ctx) => {
  const w = new Where();
  const sic = req.query.sic_code !== undefined && req.query.sic_code !== '' ? parseSicCode(req.query.sic_code) : undefined;
  const pc = req.query.postcode !== undefined && req.query.postcode !== '' ? postcodePrefix(req.query.postcode, 'postcode') : undefined;
  if (sic) w.add('list_contains(sic_codes, ?)', sic);
  if (pc) {
    const cond = postcodeCondition(pc);
    w.add(cond.sql, ...cond.params);
  }
  const { page: p, perPage } = page(req.query);
  const c = await conn(ctx);
  const from = source(req.query.status);
  const total = (await queryOne<{ n: number }>(c, `SELECT count(*) AS n FROM ${from} ${w.sql}`, w.params))?.n ?? 0;
  const rows =
    total > (p - 1) * perPage
      ? await query<CompanyRow>(c, `SELECT * FROM ${from} ${w.sql} ORDER BY company_number LIMIT ? OFFSET ?`, [...w.params, perPage, (p - 1) * perPage])
      : [];
  return {
    data: rows.map(summary),
    meta: await baseMeta(ctx, req.query.status === 'dissolved' ? { note: DISSOLVED_NOTE } : {}),
    pagination: pagination(total, p, perPage),
  };
};

/** GET /v1/companies/{company_number} */
export const companyGet: Handler = async (req, ctx) => {
  const n = companyNumber(req.params.company_number);
  const c = await conn(ctx);
  const r = await findCompany(c, n);
  const m = await baseMeta(ctx);
  if (!r) throw companyNotFound(n, m.as_of ?? undefined);
  return { data: detail(r), meta: r.gone_by !== undefined ? { ...m, note: departedNote(r) } : m };
};

const thisYear = (ctx: HandlerContext) => ctx.now().getUTCFullYear();

/** GET /v1/companies/statistics */
export const companyStatistics: Handler = async (_req, ctx) => {
  const c = await conn(ctx);
  const m = await baseMeta(ctx);
  const month = today(ctx).slice(0, 7);
  const [tot] = await query<{ n: number; month: number; year: number }>(
    c,
    `SELECT count(*) AS n, count(*) FILTER (WHERE strftime(incorporation_date, '%Y-%m') = ?) AS month,
       count(*) FILTER (WHERE year(incorporation_date) = ?) AS year FROM companies`,
    [month, thisYear(ctx)],
  );
  const byStatus = await groupCounts(c, 'company_status');
  const byType = await groupCounts(c, 'company_type');
  return {
    data: {
      total_companies: tot?.n ?? 0,
      by_status: { ...byStatus, ...('dissolved' in byStatus ? {} : { dissolved: null }) },
      by_type: byType,
      incorporations_this_month: tot?.month ?? 0,
      incorporations_this_year: tot?.year ?? 0,
      data_as_of: m.as_of ?? null,
    },
    meta: {
      ...m,
      note:
        `Counts of the live register in the Companies House snapshot of ${m.as_of ?? 'the last sync'}: dissolved companies are not in the bulk file (by_status.dissolved is null) ` +
        `and companies incorporated after the snapshot date are not counted; ${LIVE_HINT}.`,
    },
  };
};

async function groupCounts(c: Awaited<ReturnType<typeof conn>>, column: 'company_status' | 'company_type', w = new Where()): Promise<Record<string, number>> {
  const rows = await query<{ k: string | null; n: number }>(
    c,
    `SELECT ${column} AS k, count(*) AS n FROM companies ${w.sql} GROUP BY 1 ORDER BY n DESC, k`,
    w.params,
  );
  return Object.fromEntries(rows.map((r) => [r.k ?? 'unknown', r.n]));
}

async function incorporations(c: Awaited<ReturnType<typeof conn>>, ctx: HandlerContext, w: Where): Promise<{ this_year: number; last_year: number }> {
  const y = thisYear(ctx);
  const r = await queryOne<{ a: number; b: number }>(
    c,
    `SELECT count(*) FILTER (WHERE year(incorporation_date) = ?) AS a, count(*) FILTER (WHERE year(incorporation_date) = ?) AS b FROM companies ${w.sql}`,
    [y, y - 1, ...w.params],
  );
  return { this_year: r?.a ?? 0, last_year: r?.b ?? 0 };
}

/** GET /v1/companies/geography/{postcode_prefix} */
export const companyGeography: Handler = async (req, ctx) => {
  const prefix = postcodePrefix(req.params.postcode_prefix, 'postcode_prefix');
  const cond = postcodeCondition(prefix);
  const w = new Where().add(cond.sql, ...cond.params);
  const c = await conn(ctx);
  const byStatus = await groupCounts(c, 'company_status', w);
  const count = Object.values(byStatus).reduce((a, b) => a + b, 0);
  const m = await baseMeta(ctx);
  if (count === 0) {
    throw errors.notFound(`No company on the register has its registered office in postcode ${describePrefix(prefix)} (snapshot of ${m.as_of ?? 'the last sync'}).`);
  }
  const top = await query<{ code: string; n: number; text: string }>(
    c,
    `SELECT code, count(*) AS n, any_value(text) AS text FROM (
       SELECT regexp_extract(text, '^([0-9]{4,5}) - ', 1) AS code, text FROM (SELECT unnest(sic_texts) AS text FROM companies ${w.sql}))
     WHERE code <> '' GROUP BY code ORDER BY n DESC, code LIMIT 10`,
    w.params,
  );
  return {
    data: {
      postcode_prefix: prefix,
      company_count: count,
      active_count: byStatus.active ?? 0,
      by_status: byStatus,
      top_sic_codes: top.map((t) => ({ code: t.code, description: sicCode(t.code)?.description ?? t.text.replace(/^\d+ - /, ''), count: t.n })),
      incorporations: await incorporations(c, ctx, w),
    },
    meta: { ...m, postcode_match: describePrefix(prefix), note: `Registered-office postcodes of companies on the live register (no dissolved companies); ${LIVE_HINT}.` },
  };
};

function describePrefix(prefix: string): string {
  const m = classifyPostcode(prefix);
  switch (m.kind) {
    case 'area':
      return `area ${m.area}`;
    case 'outward':
      return `district ${m.outward}`;
    case 'full':
      return m.postcode;
    default:
      return `sector ${m.prefix}`;
  }
}

/** GET /v1/companies/sectors/{sic_code}/analytics (register part; the financial part comes from accounts). */
export const sectorAnalytics: Handler = async (req, ctx) => {
  const sic = parseSicCode(req.params.sic_code);
  const entry = sicCode(sic);
  if (!entry) throw errors.notFound(`SIC code '${sic}' is not a SIC 2007 code; see 'publicdata companies sic-codes'.`);
  const w = new Where().add('list_contains(sic_codes, ?)', sic);
  const c = await conn(ctx);
  const byStatus = await groupCounts(c, 'company_status', w);
  const fin = await sectorFinancials(ctx, sic);
  const note = accountsNote(ctx, 'financial_benchmarks, filing_count and benchmark_calculated_at');
  return {
    data: {
      sic_code: sic,
      sic_description: entry.description,
      sic_section: entry.section,
      company_count: Object.values(byStatus).reduce((a, b) => a + b, 0),
      active_count: byStatus.active ?? 0,
      by_status: byStatus,
      incorporations: await incorporations(c, ctx, w),
      ...fin,
    },
    meta: await baseMeta(ctx, {
      sic_section_description: entry.section ? sectionDescription(entry.section) ?? null : null,
      note: [`Companies on the live register with ${sic} among their SIC codes (no dissolved companies).`, note].filter(Boolean).join(' '),
    }),
  };
};

/** GET /v1/companies/{company_number}/filing-status, evaluated against the clock (spec doc 2 §3). */
export const filingStatus: Handler = async (req, ctx) => {
  const n = companyNumber(req.params.company_number);
  const c = await conn(ctx);
  const r = await findCompany(c, n);
  const m = await baseMeta(ctx);
  if (!r) throw companyNotFound(n, m.as_of ?? undefined);
  const now = today(ctx);
  const due = [r.accounts_next_due, r.confirmation_next_due].filter((d): d is string => !!d).sort()[0] ?? null;
  const days = due ? daysBetween(now, due) : null;
  const active = r.company_status === 'active';
  const status = !active ? 'not_applicable' : days === null ? 'unknown' : days < 0 ? 'overdue' : days < 30 ? 'due_soon' : 'up_to_date';
  const latest = await latestFiling(ctx, n);
  const notes = [
    `Due dates from the register snapshot of ${m.as_of ?? 'the last sync'}, evaluated against today (${now}); a filing made since the snapshot is not seen.`,
    r.gone_by !== undefined ? departedNote(r) : undefined,
    accountsNote(ctx, 'latest_filing and days_since_last_filing'),
  ].filter(Boolean);
  return {
    data: {
      company_number: r.company_number,
      company_name: r.company_name,
      company_status: r.company_status,
      compliance_status: status,
      accounts_next_due: r.accounts_next_due,
      accounts_last_made_up_to: r.accounts_last_made_up_to,
      confirmation_next_due: r.confirmation_next_due,
      days_until_due: active ? days : null,
      days_since_last_filing: latest?.filed_at ? daysBetween(latest.filed_at.slice(0, 10), now) : null,
      is_overdue: active && days !== null && days < 0,
      latest_filing: latest ? { period_end: latest.period_end, filing_type: latest.filing_type, has_financials: latest.has_financials } : null,
    },
    meta: { ...m, next_due_basis: 'the earlier of accounts next due and confirmation statement next due', note: notes.join(' ') },
  };
};

