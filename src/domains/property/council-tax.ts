/**
 * /v1/property/council-tax over the mirror's council_tax.duckdb (sync/council-tax.ts, MHCLG Table 9).
 * Record: {authority_code, authority_name, financial_year, band, amount}. Filters: authority_code exact,
 * authority_name case-insensitive substring (literal, no wildcards), band A–H (validated, any case),
 * financial_year exact. Unknown values give an empty 200. Order: authority name (case-insensitive),
 * code, financial year (newest first), band A..H.
 */
import { meta as baseMeta, pagination } from '../../contract/envelope.js';
import type { Handler } from '../../contract/types.js';
import type { Param } from '../../mirror/db.js';

const DATASET = 'council-tax';

export interface CouncilTaxRecord {
  authority_code: string;
  authority_name: string;
  financial_year: string;
  band: string;
  amount: number;
}

export const councilTax: Handler = async (req, ctx) => {
  const { openDataset, query, provenanceMeta } = await import('../../mirror/db.js');
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const where: string[] = [];
  const params: Param[] = [];
  const q = req.query;
  if (typeof q.authority_code === 'string') {
    where.push('authority_code = ?');
    params.push(q.authority_code.trim());
  }
  if (typeof q.authority_name === 'string') {
    where.push('strpos(lower(authority_name), lower(?)) > 0');
    params.push(q.authority_name.trim());
  }
  if (typeof q.band === 'string') {
    where.push('band = ?');
    params.push(q.band.toUpperCase());
  }
  if (typeof q.financial_year === 'string') {
    where.push('financial_year = ?');
    params.push(q.financial_year.trim());
  }
  const page = Number(q.page ?? 1);
  const perPage = Number(q.per_page ?? 25);
  const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = Number((await query(conn, `SELECT count(*) AS n FROM council_tax ${w}`, params))[0]?.n ?? 0);
  const rows = await query(
    conn,
    `SELECT authority_code, authority_name, financial_year, band, amount FROM council_tax ${w}
     ORDER BY lower(authority_name), authority_code, financial_year DESC, band LIMIT ? OFFSET ?`,
    [...params, perPage, (page - 1) * perPage],
  );
  const data: CouncilTaxRecord[] = rows.map((r) => ({
    authority_code: String(r.authority_code),
    authority_name: String(r.authority_name),
    financial_year: String(r.financial_year),
    band: String(r.band),
    amount: Number(r.amount),
  }));
  let m;
  try {
    m = await provenanceMeta(DATASET, conn);
  } catch {
    m = baseMeta();
  }
  return { data, meta: m, pagination: pagination(total, page, perPage) };
};
