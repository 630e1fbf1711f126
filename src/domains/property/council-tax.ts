/**
 * /v1/property/council-tax over the mirror's council_tax.duckdb (sync/council-tax.ts, MHCLG Table 9).
 * Record: {authority_code, authority_name, financial_year, band, amount}. Filters: authority_code exact,
 * authority_name case-insensitive substring (literal, no wildcards), band A–H (any case; any other value
 * matches nothing: an empty 200, as the spec says for unknown bands),
 * financial_year exact. Unknown values give an empty 200. Order: authority name (case-insensitive),
 * code, financial year (newest first), band A..H.
 */
import { pagination } from '../../contract/envelope.js';
import type { Handler } from '../../contract/types.js';
import { openDataset, pagedQuery, provenanceMeta, Where } from '../../mirror/db.js';
import { COUNCIL_TAX_INFO } from './datasets.js';

const DATASET = COUNCIL_TAX_INFO;

export interface CouncilTaxRecord {
  authority_code: string;
  authority_name: string;
  financial_year: string;
  band: string;
  amount: number;
}

export const councilTax: Handler = async (req, ctx) => {
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const where = new Where();
  const q = req.query;
  if (typeof q.authority_code === 'string') where.add('authority_code = ?', q.authority_code.trim());
  if (typeof q.authority_name === 'string') where.add('strpos(lower(authority_name), lower(?)) > 0', q.authority_name.trim());
  if (typeof q.band === 'string') where.add('band = ?', q.band.toUpperCase());
  if (typeof q.financial_year === 'string') where.add('financial_year = ?', q.financial_year.trim());
  const page = Number(q.page ?? 1);
  const perPage = Number(q.per_page ?? 25);
  const { rows, total } = await pagedQuery(conn, {
    from: 'council_tax',
    columns: 'authority_code, authority_name, financial_year, band, amount',
    where,
    orderBy: 'lower(authority_name), authority_code, financial_year DESC, band',
    page,
    perPage,
  });
  const data: CouncilTaxRecord[] = rows.map((r) => ({
    authority_code: String(r.authority_code),
    authority_name: String(r.authority_name),
    financial_year: String(r.financial_year),
    band: String(r.band),
    amount: Number(r.amount),
  }));
  return { data, meta: await provenanceMeta(DATASET, conn), pagination: pagination(total, page, perPage) };
};
