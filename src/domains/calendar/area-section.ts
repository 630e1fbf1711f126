/**
 * The calendar section of the area profile (src/domains/area-section.ts, docs/places.md): the next bank
 * holiday of the postcode's country's division (`no_coverage` where GOV.UK publishes none).
 */
import { nullable, obj, oneOf, str } from '../../contract/schema.js';
import { rows, type AreaSectionModule } from '../area-section.js';

export const section: AreaSectionModule = {
  async build(c, p) {
    const division = p.country?.division;
    if (!division) return { status: 'no_coverage', note: 'GOV.UK publishes bank holidays for England and Wales, Scotland and Northern Ireland only.' };
    const d = (await c.get('/v1/calendar/bank-holidays/next', { region: division.replace(/-/g, '_') })).data;
    const h = d.bank_holidays?.[0];
    return { status: 'ok', division, next_bank_holiday: h ? { date: h.date, title: h.title } : null };
  },

  figures: { division: oneOf(['england-and-wales', 'scotland', 'northern-ireland']), next_bank_holiday: nullable(obj({ date: str(), title: str() })) },

  render(s, width) {
    return rows([['next bank holiday', s.next_bank_holiday ? `${s.next_bank_holiday.date} ${s.next_bank_holiday.title}` : 'none loaded']], width);
  },
};
