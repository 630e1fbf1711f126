/**
 * SIC 2007 codes and sections from shipped data (data/companies/sic-2007.yaml): answers
 * /v1/companies/sic-codes and /sic-codes/{code} with no sync, and gives descriptions and sections to the
 * register handlers.
 */
import { meta, paged } from '../../contract/envelope.js';
import { errors } from '../../contract/errors.js';
import type { Handler, Meta } from '../../contract/types.js';
import { loadData } from '../../data.js';

interface SicData {
  sections: { source: string; as_of: string; no_section?: Array<{ code: string; note: string }>; values: Array<{ section: string; description: string; divisions: [number, number] }> };
  codes: { source: string; as_of: string; values: Array<[string, string]> };
}

export interface SicCode {
  code: string;
  description: string;
  section: string | null;
}

let cache: { list: SicCode[]; byCode: Map<string, SicCode>; sections: Map<string, string>; data: SicData } | undefined;

function sic() {
  if (cache) return cache;
  const data = loadData<SicData>('companies/sic-2007');
  const list = data.codes.values.map(([code, description]) => ({ code, description, section: sectionOf(code, data) }));
  cache = {
    list,
    byCode: new Map(list.map((c) => [c.code, c])),
    sections: new Map(data.sections.values.map((s) => [s.section, s.description])),
    data,
  };
  return cache;
}

/** The section letter of a code: the section whose division range holds the code's first two digits. */
function sectionOf(code: string, data: SicData): string | null {
  const division = Number(code.slice(0, 2));
  if (!/^\d{4,5}$/.test(code)) return null;
  if (data.sections.no_section?.some((x) => x.code === code)) return null;
  return data.sections.values.find((s) => division >= s.divisions[0] && division <= s.divisions[1])?.section ?? null;
}

/** The SIC 2007 entry of a code, or undefined (SIC 2003 codes, unknown codes). */
export function sicCode(code: string): SicCode | undefined {
  return sic().byCode.get(code);
}

export function sectionDescription(letter: string): string | undefined {
  return sic().sections.get(letter);
}

/** Split a BasicCompanyData SIC text `"NNNNN - Description"` (or "None Supplied") into code and description. */
export function splitSicText(text: string): { code: string | null; description: string } {
  const m = /^(\d{4,5}) - (.*)$/.exec(text.trim());
  return m ? { code: m[1]!, description: m[2]! } : { code: null, description: text.trim() };
}

/** SIC codes and sections: a validated code (5 digits), else 400. */
export function parseSicCode(raw: unknown, field = 'sic_code'): string {
  const s = String(raw ?? '').trim();
  if (!/^\d{4,5}$/.test(s)) throw errors.invalidParameter(`${field} must be a SIC code of 4 or 5 digits, e.g. 62020 (got '${s}').`);
  return s;
}

export function sicMeta(extra: Record<string, unknown> = {}): Meta {
  const d = sic().data;
  return meta({ source: 'Companies House', source_url: d.codes.source.split('; ').pop()!, as_of: d.codes.as_of, ...extra });
}

/** GET /v1/companies/sic-codes?section&page&per_page */
export const sicCodes: Handler = (req) => {
  const raw = req.query.section;
  let list = sic().list;
  if (raw !== undefined && raw !== '') {
    const section = String(raw).trim().toUpperCase();
    if (!sic().sections.has(section)) throw errors.invalidParameter(`section must be a letter from A to U (got '${String(raw)}').`);
    list = list.filter((c) => c.section === section);
  }
  return paged(list, Number(req.query.page ?? 1), Number(req.query.per_page ?? 25), sicMeta());
};

/** GET /v1/companies/sic-codes/{code} */
export const sicCodeGet: Handler = (req) => {
  const code = String(req.params.code ?? '').trim();
  const c = sic().byCode.get(code);
  if (!c) {
    throw errors.notFound(
      /^\d{4}$/.test(code)
        ? `SIC code '${code}' is not a SIC 2007 code (4-digit codes are SIC 2003, which some older companies still carry).`
        : `SIC code '${code}' not found. Codes are 5 digits, e.g. 62020; see 'publicdata companies sic-codes'.`,
    );
  }
  return { data: { ...c, section_description: c.section ? sic().sections.get(c.section) ?? null : null }, meta: sicMeta() };
};
