/**
 * POST /v1/tax/vat/return/calculate: a nine-box VAT return from a period of transactions.
 * The route has `bodyDocument: true`: the whole body is validated by prepare.ts, registered as the route's
 * document validator (src/domains/tax/index.ts), which src/execute.ts runs before any backend is chosen;
 * every failure is answered at once as 400 VALIDATION_ERROR with details[] {field, code, message}.
 */
import { meta } from '../../../contract/envelope.js';
import { errors } from '../../../contract/errors.js';
import type { Handler, HandlerRequest, SuccessEnvelope } from '../../../contract/types.js';
import type { DocumentValidator } from '../../manifest.js';
import { NOTICE_700_12, computeReturn, type BreakdownDetail } from './engine.js';
import { prepare, type Prepared } from './prepare.js';

export { transactionsFromCsv } from './csv.js';
export { MAX_TRANSACTIONS } from './prepare.js';

/** The computation without the HTTP envelope (bench, CLI): throws ApiError VALIDATION_ERROR on a bad body. */
export function calculateVatReturn(body: unknown, detail: BreakdownDetail = 'summary'): Record<string, unknown> {
  const r = prepare(body);
  if (!r.ok) throw errors.validation(r.details);
  return computeReturn(r.prepared, detail);
}

/** The route's document validator: the body checked and resolved once, before any backend is chosen. */
export const vatReturnDocument: DocumentValidator = (body) => {
  const r = prepare(body);
  return r.ok ? { ok: true, document: r.prepared } : r;
};

export const vatReturnCalculate: Handler = (req: HandlerRequest): SuccessEnvelope => {
  const detail = (req.query['breakdown_detail'] as BreakdownDetail | undefined) ?? 'summary';
  // The runner (src/runner.ts) checks the document before any handler runs, single calls and batch lines alike.
  if (req.document === undefined) throw new Error('vat-return: called without its checked document (the handler runner checks it first)');
  const data = computeReturn(req.document as Prepared, detail);
  return {
    data,
    meta: meta({
      source: 'HM Revenue & Customs',
      source_url: NOTICE_700_12,
      breakdown_detail: detail,
    }),
  };
};
