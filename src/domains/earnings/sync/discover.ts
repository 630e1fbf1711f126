/**
 * Finding the ASHE zips on the ONS dataset pages (data/earnings/ashe-tables.yaml names them), e.g.
 * https://www.ons.gov.uk/employmentandlabourmarket/peopleinwork/earningsandworkinghours/datasets/placeofresidencebylocalauthorityashetable8
 * links `/file?uri=/employmentandlabourmarket/.../placeofresidencebylocalauthorityashetable8/2025provisional/ashetable82025provisional.zip`
 * (older editions `table82021provisional.zip`, `.../2024revised/ashetable82024revised.zip`). One zip per
 * table and year is chosen, the revised edition over the provisional one; with a previous sync, only the
 * (table, year) not loaded yet or loaded as provisional and now revised are fetched (as `update` files).
 */
import type { DiscoverContext, UpstreamFile } from '../../../../sync/types.js';
import { asheTables, type AsheTable } from '../codes.js';

export type Status = 'provisional' | 'revised';

export interface Edition {
  table: string;
  year: number;
  status: Status;
  url: string;
  name: string;
}

/** What a previous sync loaded (table earnings_sources of the live file). */
export interface LoadedSource {
  ons_table: string;
  year: number;
  status: Status;
  /** The zip (or workbook) it came from, and that file's size in bytes when recorded (earnings_editions). */
  container?: string;
  bytes?: number | null;
}

const ZIP_RE = /^(?:ashe)?table(\d{1,2}?)((?:19|20)\d{2})(provisional|revised)?\.zip$/i;

/** Table, year and status of an ONS zip name (ashetable82025provisional.zip, table142021revised.zip). */
export function editionOfName(name: string): { table: string; year: number; status: Status } | undefined {
  const m = ZIP_RE.exec(name);
  if (!m) return undefined;
  return { table: m[1]!, year: Number(m[2]), status: m[3]?.toLowerCase() === 'provisional' ? 'provisional' : 'revised' };
}

/** The status of a table file: from its zip's name, else ONS's 'PROV - ' prefix on provisional tables. */
export function statusOf(zipOrFile: string, member?: string): Status {
  const z = editionOfName(zipOrFile);
  if (z) return z.status;
  return /^PROV\b/i.test(member ?? zipOrFile) ? 'provisional' : 'revised';
}

/** Every edition zip linked from a dataset page (hrefs decoded; `/file?uri=...` links included). */
export function editionsOnPage(html: string, pageUrl: string, table: AsheTable): Edition[] {
  const out: Edition[] = [];
  const seen = new Set<string>();
  for (const m of html.matchAll(/href\s*=\s*["']([^"']+)["']/gi)) {
    const href = m[1]!.replace(/&amp;/g, '&');
    let decoded: string;
    try {
      decoded = decodeURIComponent(href);
    } catch {
      continue;
    }
    const name = decoded.split(/[/=?&]/).pop() ?? '';
    const e = editionOfName(name);
    if (!e || e.table !== table.table || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    let url: string;
    try {
      url = new URL(href, pageUrl).toString();
    } catch {
      continue;
    }
    out.push({ ...e, url, name });
  }
  return out;
}

/** One edition per (table, year): revised over provisional. */
export function bestEditions(all: readonly Edition[]): Edition[] {
  const best = new Map<string, Edition>();
  for (const e of all) {
    const k = `${e.table}/${e.year}`;
    const b = best.get(k);
    if (!b || (b.status === 'provisional' && e.status === 'revised')) best.set(k, e);
  }
  return [...best.values()].sort((a, b) => a.year - b.year || Number(a.table) - Number(b.table));
}

/** The years to load: `--years`, else the newest five years any page offers. */
export function chooseYears(all: readonly Edition[], years: DiscoverContext['options']['years']): Set<number> {
  const offered = [...new Set(all.map((e) => e.year))].sort((a, b) => b - a);
  if (years) return new Set(offered.filter((y) => y >= years.from && y <= years.to));
  return new Set(offered.slice(0, 5));
}

/** Editions still to load given what the live file holds: new (table, year), or provisional now revised. */
export function stillToLoad(chosen: readonly Edition[], loaded: readonly LoadedSource[] | undefined): Edition[] {
  if (!loaded) return [...chosen];
  return chosen.filter((e) => {
    const have = loaded.filter((l) => l.ons_table === e.table && l.year === e.year);
    if (have.length === 0) return true;
    // A revised edition loaded once is not fetched again (even if a measure of it still reads provisional).
    return e.status === 'revised' && !have.some((l) => l.status === 'revised');
  });
}

export async function discoverEditions(ctx: DiscoverContext): Promise<UpstreamFile[]> {
  const all: Edition[] = [];
  for (const t of asheTables().tables) {
    const page = `${ctx.baseUrl.replace(/\/+$/, '')}/${t.page}`;
    let html: string;
    try {
      html = await ctx.fetchText(page);
    } catch (e) {
      throw new Error(`could not read the ONS page of ASHE Table ${t.table} (${page}: ${(e as Error).message}). Use 'publicdata sync earnings --from <zip, xls or xlsx>'.`);
    }
    const found = editionsOnPage(html, page, t);
    if (!found.length) throw new Error(`no ASHE Table ${t.table} zip linked on ${page}. Use 'publicdata sync earnings --from <zip, xls or xlsx>'.`);
    all.push(...found);
  }
  const years = chooseYears(all, ctx.options.years);
  if (!years.size) throw new Error(`no ASHE tables for ${ctx.options.years?.from}-${ctx.options.years?.to} on the ONS pages`);
  const chosen = bestEditions(all.filter((e) => years.has(e.year)));
  const loaded = ctx.previous?.module as LoadedSource[] | undefined;
  const todo = ctx.options.force ? chosen : stillToLoad(chosen, loaded);
  const kind = ctx.previous && Array.isArray(loaded) ? 'update' : 'full';
  const files: UpstreamFile[] = todo.map((e) => ({ url: e.url, name: e.name, kind }));
  // An edition re-issued under the same name (ONS corrected the 2025 provisional zip in December 2025): the
  // size the publisher serves now against the size loaded; a changed one is fetched and loaded again.
  if (!ctx.options.force && Array.isArray(loaded))
    for (const e of chosen) {
      if (todo.includes(e)) continue;
      const was = loaded.find((l) => l.container === e.name && typeof l.bytes === 'number');
      if (!was || !ctx.sizeOf) continue;
      const now = await ctx.sizeOf(e.url);
      if (now === undefined || now === was.bytes) continue;
      files.push({
        url: e.url,
        name: e.name,
        kind,
        reload: true,
        note: `${e.name} was re-issued under the same name (${was.bytes} bytes loaded, ${now} bytes now): loaded again`,
      });
    }
  return files;
}
