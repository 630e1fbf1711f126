/**
 * Local handlers of the /v1/calendar routes (shapes: GOVDATA-NOTES.md "Calendar"; designed parts in docs/property.md).
 *
 *  - regions: `data.regions` = [{slug, name}] (fixed list, no data needed).
 *  - bank-holidays: `data.bank_holidays` = holidays of the current and the next calendar year (UK date of the clock).
 *  - bank-holidays/{year}: `data.bank_holidays` = holidays of that year.
 *  - bank-holidays/next: `data.bank_holidays` = for each region, the first holiday on or after today, with `days_until`.
 * Items: {date, title, region, notes (null for ''), bunting}; order date ascending, then region
 * (England and Wales, Scotland, Northern Ireland). meta: api_version, licence, source, source_url, as_of
 * (date the data was fetched from GOV.UK) and `warnings` (array of strings, only when there is something to say).
 */
import { meta as baseMeta } from '../../contract/envelope.js';
import type { Handler, HandlerContext, Meta } from '../../contract/types.js';
import { BANK_HOLIDAYS_INFO } from './datasets.js';
import { firstDate, inYears, lastDate, nextPerRegion, REGIONS, stalenessWarning, ukDate } from './holidays.js';
import { loadHolidays, type HolidaySource } from './source.js';

function calendarMeta(src?: HolidaySource, today?: string, extraWarnings: string[] = []): Meta {
  // source and source_url as the catalogue has them for the bank-holidays dataset (mirror or snapshot alike)
  const info = BANK_HOLIDAYS_INFO;
  const m = baseMeta({ source: info.publisher, source_url: info.sourceUrl });
  if (!src || !today) return m;
  m.as_of = src.asOf;
  const warnings = [...extraWarnings];
  const stale = stalenessWarning(src.items, today);
  if (stale) warnings.push(stale);
  if (warnings.length > 0) m.warnings = warnings;
  return m;
}

function regionOf(req: { query: Record<string, unknown> }): string | undefined {
  const r = req.query.region;
  return typeof r === 'string' ? r : undefined;
}

function coverageWarning(src: HolidaySource, fromYear: number, toYear: number): string[] {
  const first = firstDate(src.items);
  const last = lastDate(src.items);
  if (!first || !last) return [];
  const y0 = Number(first.slice(0, 4));
  const y1 = Number(last.slice(0, 4));
  const missing: number[] = [];
  for (let y = fromYear; y <= toYear; y++) if (y < y0 || y > y1) missing.push(y);
  if (missing.length === 0) return [];
  return [`The bank-holiday data covers ${y0} to ${y1}; it has nothing for ${missing.join(' and ')}.`];
}

async function load(ctx: HandlerContext): Promise<{ src: HolidaySource; today: string }> {
  return { src: await loadHolidays(ctx), today: ukDate(ctx.now()) };
}

export const regions: Handler = () => ({ data: { regions: REGIONS.map((r) => ({ ...r })) }, meta: calendarMeta() });

export const bankHolidays: Handler = async (req, ctx) => {
  const { src, today } = await load(ctx);
  const year = Number(today.slice(0, 4));
  const items = inYears(src.items, year, year + 1, regionOf(req));
  return { data: { bank_holidays: items }, meta: calendarMeta(src, today, coverageWarning(src, year, year + 1)) };
};

export const bankHolidaysYear: Handler = async (req, ctx) => {
  const { src, today } = await load(ctx);
  const year = Number(req.params.year);
  const items = inYears(src.items, year, year, regionOf(req));
  return { data: { bank_holidays: items }, meta: calendarMeta(src, today, coverageWarning(src, year, year)) };
};

export const bankHolidaysNext: Handler = async (req, ctx) => {
  const { src, today } = await load(ctx);
  const region = regionOf(req);
  const items = nextPerRegion(src.items, today, region);
  const extra: string[] = [];
  const expected = region === undefined ? REGIONS.length : 1;
  if (items.length < expected) extra.push('The bank-holiday data has no upcoming holiday for some regions.');
  return { data: { bank_holidays: items }, meta: calendarMeta(src, today, extra) };
};
