/**
 * What the tax response schemas share (schemas.ts, schemas-business.ts, schemas-vat-return.ts): the tax-year
 * string, the spec document's name, the meta fields each route must carry.
 */
import type { JsonSchema } from '../../contract/schema.js';

/** The spec document of every tax route. */
export const SPEC = '3-tax-vehicles-calendar.md';

/** A tax year `YYYY-YY` (1-overview-auth-errors-limits.md §1 convention 6). */
export const taxYear = (description = 'tax year YYYY-YY'): JsonSchema => ({ type: 'string', pattern: '^\\d{4}-\\d{2}$', description });

/**
 * `meta` beyond `api_version`: "Every response has meta with api_version and licence" (spec doc 3, preamble);
 * `source` and `source_url` only where an endpoint section states them (income bands, the VAT return). The
 * other tax answers carry `source`/`source_url` too, as an addition the open `Meta` schema allows.
 */
export const META = ['licence'] as const;
export const META_SOURCE_URL = ['licence', 'source_url'] as const;
export const META_SOURCE = ['licence', 'source', 'source_url'] as const;
