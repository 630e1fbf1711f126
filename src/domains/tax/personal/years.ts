/** Tax years: list, current, one year. Handlers of the personal-tax routes (spec doc 3 §4 "Tax"; shapes designed in docs/tax-personal.md). */
import { ApiError, errors } from '../../../contract/errors.js';
import { meta, ok, paged } from '../../../contract/envelope.js';
import type { Handler } from '../../../contract/types.js';
import { raw } from '../personal-params.js';
import { currentTaxYear } from '../tax-year.js';


interface TaxYearOut {
  identifier: string;
  start_date: string;
  end_date: string;
  active: boolean;
  key_dates: Record<string, string | null>;
}

function taxYearsAll(now: Date): TaxYearOut[] {
  const cur = currentTaxYear(now);
  return Object.entries(raw.taxYears().years)
    .map(([id, y]) => ({ identifier: id, start_date: y.start_date, end_date: y.end_date, active: id === cur, key_dates: { ...y.key_dates } }))
    .sort((a, b) => (a.identifier < b.identifier ? 1 : -1));
}

/** Newest first (docs/tax-personal.md). */
export const taxYearsList: Handler = (req, ctx) => {
  const page = (req.query.page as number) ?? 1;
  const perPage = (req.query.per_page as number) ?? 25;
  return paged(taxYearsAll(ctx.now()), page, perPage, meta());
};

export const taxYearsCurrent: Handler = (_req, ctx) => {
  const y = taxYearsAll(ctx.now()).find((t) => t.active);
  if (!y) throw new ApiError(404, 'no_active_tax_year', 'No tax year is active.');
  return ok(y, meta());
};

export const taxYearsGet: Handler = (req, ctx) => {
  const id = req.params.identifier as string;
  const y = taxYearsAll(ctx.now()).find((t) => t.identifier === id);
  if (!y) throw errors.invalidTaxYear(id);
  return ok(y, meta());
};
