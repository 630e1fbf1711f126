/**
 * The companies section of the area profile (src/domains/area-section.ts, docs/places.md): the active
 * companies with their registered office in the postcode's sector, those incorporated in the 12 months
 * before today, and the top five SIC sections (a company counted once per section).
 */
import { ApiError } from '../../contract/errors.js';
import { arr, int, nullable, obj, str } from '../../contract/schema.js';
import { num, rows, type AreaSectionModule, type Json } from '../area-section.js';

export const section: AreaSectionModule = {
  async build(c, p) {
    const sector = String(p.pc.sector);
    const { records } = await c.all('/v1/companies', { postcode: sector, status: 'active' });
    const since = new Date(`${p.today}T00:00:00Z`);
    since.setUTCFullYear(since.getUTCFullYear() - 1);
    const cut = since.toISOString().slice(0, 10);
    const sections = new Map<string, { label: string; count: number }>();
    const known = new Map<string, { section: string | null; label: string | null }>();
    for (const r of records) {
      const seen = new Set<string>();
      for (const code of (r.sic_codes ?? []) as string[]) {
        if (!known.has(code)) {
          try {
            const s = (await c.get(`/v1/companies/sic-codes/${encodeURIComponent(code)}`)).data;
            known.set(code, { section: s.section ?? null, label: s.section_description ?? null });
          } catch (e) {
            if (!(e instanceof ApiError)) throw e;
            known.set(code, { section: null, label: null });
          }
        }
        const k = known.get(code)!;
        if (!k.section || seen.has(k.section)) continue;
        seen.add(k.section);
        const cur = sections.get(k.section) ?? { label: k.label ?? k.section, count: 0 };
        cur.count++;
        sections.set(k.section, cur);
      }
    }
    return {
      status: 'ok', sector, active_companies: records.length,
      incorporated_last_12_months: records.filter((r) => typeof r.date_of_creation === 'string' && r.date_of_creation > cut).length,
      by_sic_section: [...sections].sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0])).slice(0, 5)
        .map(([section, v]) => ({ section, label: v.label, count: v.count })),
    };
  },

  figures: { sector: str(), active_companies: int(), incorporated_last_12_months: int(), by_sic_section: arr(obj({ section: str(), label: nullable(str()), count: int() })) },

  render(s, width) {
    return rows([[`active companies in ${s.sector}`, num(s.active_companies)], ['incorporated in 12 months', num(s.incorporated_last_12_months)], ...(s.by_sic_section as Json[]).map((x) => [`  ${x.section} ${x.label}`, num(x.count)] as [string, string])], width);
  },
};
