/**
 * /v1/vehicles/mot-tests, /mot-pass-rates and /mot-failures over the mirror's mot.duckdb (sync/mot.ts).
 *
 * - `make` and `model` match case-insensitively and exactly (the DVSA's free-text values, upper case).
 * - mot-tests: individual results (P, F, PRS only; abandoned, aborted and refused tests are not results),
 *   newest data never invented: `odometer.reading` is null where the tester recorded 0 or nothing,
 *   `first_use_date` null where DVSA wrote its 1971-01-01 placeholder. Ordered by test date, then test id.
 *   No vehicle id, registration or VIN exists in the mirror.
 * - mot-pass-rates: normal tests (NT) with outcome P, F or PRS; passes = P + PRS; pass_rate = passes / tests
 *   rounded to 4 decimal places. Ordered by make, model, first-use band, age band (youngest first), fuel.
 * - mot-failures: test items of those tests, per make, model, reason; failures = item rows, affected_tests =
 *   distinct tests. Ordered by failures (most first), then make, model, rfr_type, description.
 * Definitions and their sources: docs/vehicles.md.
 */
import { pagination } from '../../contract/envelope.js';
import type { Handler, HandlerContext, Meta, SuccessEnvelope } from '../../contract/types.js';
import { openDataset, pagedQuery, provenanceMeta, query, Where } from '../../mirror/db.js';
import { AGE_BAND_LABELS, passRatesSql } from './mot-codes.js';
import { MOT_INFO } from './datasets.js';

const DATASET = MOT_INFO;

export interface MotTestRecord {
  test_id: number;
  test_date: string;
  test_year: number;
  test_class: string;
  test_type: string;
  result: 'passed' | 'failed' | 'pass_with_rectification';
  odometer: { reading: number | null; unit: 'mi' };
  postcode_area: string | null;
  make: string | null;
  model: string | null;
  colour: string | null;
  fuel_type: string;
  cylinder_capacity_cc: number | null;
  first_use_date: string | null;
}

type Conn = Awaited<ReturnType<typeof openDataset>>;
const str = (v: unknown): string | undefined => {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return t === '' ? undefined : t;
};

const yearsCache = new WeakMap<object, Promise<number[]>>();
/** The test years in the mirror (mot_years, written at sync). */
function loadedYears(conn: Conn): Promise<number[]> {
  let p = yearsCache.get(conn);
  if (!p) {
    p = query<{ test_year: number }>(conn, 'SELECT test_year FROM mot_years WHERE tests > 0 ORDER BY test_year').then((r) => r.map((x) => x.test_year));
    yearsCache.set(conn, p);
  }
  return p;
}

async function baseMeta(conn: Conn, year: number | undefined, extra: Record<string, unknown>): Promise<Meta> {
  const years = await loadedYears(conn);
  const missing = year !== undefined && !years.includes(year);
  return provenanceMeta(DATASET, conn, {
    test_year: year ?? years[years.length - 1] ?? null,
    available_test_years: years,
    cadence: 'yearly',
    ...extra,
    ...(missing
      ? {
          note: `The mirror holds MOT test year${years.length === 1 ? '' : 's'} ${years.join(', ') || 'none'}, not ${year}; run 'publicdata sync mot --years ${year}' to add it.`,
        }
      : {}),
  });
}

function makeModel(where: Where, q: Record<string, unknown>, prefix = ''): void {
  const make = str(q.make);
  if (make) where.add(`${prefix}make = ?`, make.toUpperCase());
  const model = str(q.model);
  if (model) where.add(`${prefix}model = ?`, model.toUpperCase());
}

const pageOf = (q: Record<string, unknown>) => ({ page: Number(q.page ?? 1), perPage: Number(q.per_page ?? 25) });

/**
 * What the two aggregated routes share: the page, the mirror, the test year (validation has applied the
 * route's default, spec doc 3: 2025) and a WHERE on it plus make and model.
 */
async function yearScope(req: Parameters<Handler>[0], ctx: HandlerContext) {
  const q = req.query;
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const year = Number(q.test_year);
  const where = new Where().add('test_year = ?', year);
  makeModel(where, q);
  return { q, ...pageOf(q), conn, year, where };
}

export const motTests: Handler = async (req, ctx: HandlerContext): Promise<SuccessEnvelope> => {
  const q = req.query;
  const { page, perPage } = pageOf(q);
  const conn = await openDataset(DATASET, ctx.mirrorDir);
  const year = q.test_year === undefined ? undefined : Number(q.test_year);
  const where = new Where();
  if (year !== undefined) where.add('test_year = ?', year);
  makeModel(where, q);
  if (q.fuel_type) where.add('fuel_type = ?', String(q.fuel_type));
  if (q.result) where.add('result = ?', String(q.result));
  const area = str(q.postcode_area);
  if (area) where.add('postcode_area = ?', area.toUpperCase());
  if (q.first_use_year_from !== undefined) where.add('first_use_date >= make_date(CAST(? AS INTEGER), 1, 1)', Number(q.first_use_year_from));
  if (q.first_use_year_to !== undefined) where.add('first_use_date <= make_date(CAST(? AS INTEGER), 12, 31)', Number(q.first_use_year_to));
  const meta = await baseMeta(conn, year, {
    coverage: 'results_only',
    caveat:
      'Anonymised: no vehicle identifier, registration or VIN. Results P, F and PRS only (abandoned, aborted and refused tests are not listed). ' +
      'odometer.reading is null where none was recorded (0 or blank); first_use_date is null where unknown (DVSA writes 1971-01-01).',
  });
  const { rows, total } = await pagedQuery(conn, {
    from: 'mot_tests',
    columns:
      "test_id, strftime(test_date, '%Y-%m-%d') AS test_date, test_year, test_class, test_type, result, mileage, postcode_area, make, model, colour, fuel_type, cylinder_capacity_cc, strftime(first_use_date, '%Y-%m-%d') AS first_use_date",
    where,
    orderBy: 'test_date, test_id',
    page,
    perPage,
  });
  const data: MotTestRecord[] = rows.map((r) => ({
    test_id: Number(r.test_id),
    test_date: String(r.test_date),
    test_year: Number(r.test_year),
    test_class: String(r.test_class),
    test_type: String(r.test_type),
    result: r.result as MotTestRecord['result'],
    odometer: { reading: r.mileage === null ? null : Number(r.mileage), unit: 'mi' },
    postcode_area: (r.postcode_area as string | null) ?? null,
    make: (r.make as string | null) ?? null,
    model: (r.model as string | null) ?? null,
    colour: (r.colour as string | null) ?? null,
    fuel_type: String(r.fuel_type),
    cylinder_capacity_cc: r.cylinder_capacity_cc === null ? null : Number(r.cylinder_capacity_cc),
    first_use_date: (r.first_use_date as string | null) ?? null,
  }));
  return { data, meta, pagination: pagination(total, page, perPage) };
};

/** Age bands in their natural order (then 'unknown'), for ORDER BY. */
function bandOrder(col: string): string {
  const labels = AGE_BAND_LABELS();
  return `CASE ${col} ${labels.map((l, i) => `WHEN '${l}' THEN ${i}`).join(' ')} ELSE ${labels.length} END`;
}

export const motPassRates: Handler = async (req, ctx) => {
  const { q, page, perPage, conn, year, where } = await yearScope(req, ctx);
  if (q.fuel_type) where.add('fuel_type = ?', String(q.fuel_type));
  if (q.vehicle_age_band) where.add('vehicle_age_band = ?', String(q.vehicle_age_band));
  const meta = await baseMeta(conn, year, {
    coverage: 'results_only',
    aggregation: 'normal_initial_tests',
    definition:
      'Normal tests (test type NT) with outcome P, F or PRS; passes = P + PRS (a pass after rectification at the test counts as a pass); ' +
      'pass_rate = passes / tests, 4 decimal places. vehicle_age_band: whole years from first use to the test date; ' +
      'first_use_year_band: five-year bands (2015-2019); both "unknown" where the first-use date is unknown or after the test date.',
  });
  const { rows, total } = await pagedQuery(conn, {
    from: passRatesSql(),
    columns: 'make, model, first_use_year_band, vehicle_age_band, fuel_type, test_year, tests, passes',
    where,
    orderBy: `make, model, first_use_year_band DESC, ${bandOrder('vehicle_age_band')}, fuel_type`,
    page,
    perPage,
  });
  const data = rows.map((r) => {
    const tests = Number(r.tests);
    const passes = Number(r.passes);
    return {
      make: r.make,
      model: r.model,
      first_use_year_band: r.first_use_year_band,
      vehicle_age_band: r.vehicle_age_band,
      fuel_type: r.fuel_type,
      test_year: Number(r.test_year),
      statistics: { tests, passes, pass_rate: tests ? Math.round((passes / tests) * 10_000) / 10_000 : 0 },
    };
  });
  return { data, meta, pagination: pagination(total, page, perPage) };
};

export const motFailures: Handler = async (req, ctx) => {
  const { q, page, perPage, conn, year, where } = await yearScope(req, ctx);
  if (q.rfr_type) where.add('rfr_type = ?', String(q.rfr_type));
  if (q.dangerous_only === true) where.add('dangerous');
  const meta = await baseMeta(conn, year, {
    coverage: 'failure_items',
    aggregation: 'make_model_reason',
    definition:
      'Test items (reasons for rejection, PRS items, advisories, minor defects) of tests with outcome P, F or PRS, per make, model and reason. ' +
      'failures = item rows; affected_tests = distinct tests. defect_category = the top-level group of the item in DVSA\'s item tree ' +
      '(item_group); dangerous = the reason is in the Dangerous deficiency category (item_detail). Per-test detail is never exposed.',
  });
  const { rows, total } = await pagedQuery(conn, {
    from: 'mot_failures',
    columns: 'make, model, test_year, rfr_type, defect_category, defect_description, dangerous, failures, affected_tests',
    where,
    orderBy: 'failures DESC, make, model, rfr_type, defect_description, defect_category, dangerous',
    page,
    perPage,
  });
  const data = rows.map((r) => ({
    make: r.make,
    model: r.model,
    test_year: Number(r.test_year),
    rfr_type: r.rfr_type,
    defect_category: r.defect_category ?? null,
    defect_description: r.defect_description ?? null,
    dangerous: Boolean(r.dangerous),
    statistics: { failures: Number(r.failures), affected_tests: Number(r.affected_tests) },
  }));
  return { data, meta, pagination: pagination(total, page, perPage) };
};
