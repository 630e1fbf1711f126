/**
 * Where the two files come from. Ofsted's monthly management information: the GOV.UK Content API of the
 * statistical data set page lists its attachments (`details.attachments[].url`); the newest
 * `…latest_inspections_as_at_<D>_<Month>_<YYYY>.csv` is taken (its asset id changes every month, so no fixed
 * URL). GIAS: the daily "all establishment data" file of today's date (UK), which GIAS builds overnight.
 * With a base URL override (PUBLICDATA_UPSTREAM_SCHOOLS / _BASE, or a `--from` URL prefix) both are read
 * below it: `<base>/api/content/…` and `<base>/edubase/downloads/public/edubasealldata<YYYYMMDD>.csv`.
 */
import type { DiscoverContext, UpstreamFile } from '../../../../sync/types.js';
import { ukDate } from '../../../uk-time.js';

export const GOVUK_BASE = 'https://www.gov.uk';
export const GIAS_HOST = 'https://ea-edubase-api-prod.azurewebsites.net';
export const CONTENT_PATH = '/api/content/government/statistical-data-sets/monthly-management-information-ofsteds-school-inspections-outcomes';
export const GIAS_PATH = '/edubase/downloads/public/';

export const MI_NAME_RE = /^Management_information_-_state-funded_schools_-_latest_inspections_as_at_(\d{1,2})_([A-Za-z]+)_(\d{4})\.csv$/i;
export const GIAS_NAME_RE = /^edubasealldata(\d{4})(\d{2})(\d{2})\.csv$/i;

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** The publication date a file name states (YYYY-MM-DD), or undefined. */
export function publishedFromName(name: string): string | undefined {
  const g = GIAS_NAME_RE.exec(name);
  if (g) return `${g[1]}-${g[2]}-${g[3]}`;
  const m = MI_NAME_RE.exec(name);
  if (m) {
    const month = MONTHS.indexOf(m[2]!.slice(0, 3).toLowerCase());
    if (month >= 0) return `${m[3]}-${String(month + 1).padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  }
  return undefined;
}

/** The newest latest-inspections CSV among the Content API's attachments, or why there is none. */
export function pickMiAttachment(doc: unknown): UpstreamFile | string {
  const atts = (doc as { details?: { attachments?: unknown } } | null)?.details?.attachments;
  if (!Array.isArray(atts)) return 'the Content API answer has no details.attachments';
  let best: UpstreamFile | undefined;
  for (const a of atts as Array<{ url?: unknown }>) {
    if (typeof a?.url !== 'string') continue;
    const name = decodeURIComponent(a.url.split('?')[0]!.split('/').pop() ?? '');
    if (!MI_NAME_RE.test(name)) continue;
    const published = publishedFromName(name);
    if (!best || (published ?? '') > (best.published ?? '')) best = { url: a.url, name, kind: 'full', ...(published ? { published } : {}) };
  }
  return best ?? 'no latest-inspections CSV among the attachments';
}

export async function discoverSchools(ctx: DiscoverContext): Promise<UpstreamFile[]> {
  const api = `${ctx.baseUrl}${CONTENT_PATH}`;
  let doc: unknown;
  try {
    doc = JSON.parse(await ctx.fetchText(api));
  } catch (e) {
    throw new Error(`could not read the GOV.UK Content API ${api} (${(e as Error).message}). Use 'publicdata sync schools --from <MI CSV> --from <GIAS CSV>'.`);
  }
  const mi = pickMiAttachment(doc);
  if (typeof mi === 'string') throw new Error(`${mi} at ${api}. Use 'publicdata sync schools --from <file or URL>'.`);
  return [await giasFile(ctx), mi];
}

/** The day before a date (YYYY-MM-DD). */
function dayBefore(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

/**
 * Today's GIAS file (UK date), or, when GIAS has not built it yet (it publishes `edubasealldata<YYYYMMDD>.csv`
 * only after its overnight build; before that the URL does not answer), the previous day's, with a note saying
 * so. Whether a file is there is asked with a one-byte ranged request (`sizeOf`): nothing is downloaded twice.
 * When neither answers, today's is returned and the download says why it failed.
 */
export async function giasFile(ctx: Pick<DiscoverContext, 'baseUrl' | 'now' | 'sizeOf'>): Promise<UpstreamFile> {
  const giasBase = ctx.baseUrl === GOVUK_BASE ? GIAS_HOST : ctx.baseUrl;
  const fileOf = (date: string): UpstreamFile => {
    const name = `edubasealldata${date.replace(/-/g, '')}.csv`;
    return { url: `${giasBase}${GIAS_PATH}${name}`, name, kind: 'full', published: date };
  };
  const today = ukDate(ctx.now());
  const current = fileOf(today);
  if (!ctx.sizeOf || (await ctx.sizeOf(current.url)) !== undefined) return current;
  const previous = fileOf(dayBefore(today));
  if ((await ctx.sizeOf(previous.url)) === undefined) return current;
  return {
    ...previous,
    note: `GIAS had not yet published today's ${current.name} (it is built overnight): loaded the previous day's ${previous.name}`,
  };
}
