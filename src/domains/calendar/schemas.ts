/**
 * Response schemas of the calendar routes. The spec leaves their fields out ("not shown",
 * 3-tax-vehicles-calendar.md §2 Calendar); GOVDATA-NOTES.md §Calendar gives the published service's
 * answers for regions and the list, and says to design `next` consistently with the list.
 */
import { bool, date, int, nullable, obj, oneOf, str, arr, ext, type ResponseSchemas } from '../../contract/schema.js';

const REGION = oneOf(['england_and_wales', 'scotland', 'northern_ireland']);

const holiday = {
  date: date(),
  title: str(),
  region: REGION,
  notes: nullable(str('null where GOV.UK has an empty string')),
  bunting: bool(),
};

const list = obj({ bank_holidays: arr(obj(holiday)) });
const SOURCE = 'GOVDATA-NOTES.md §Calendar (the spec: "not shown")';
const META = ['licence', 'source', 'source_url'];

export const responses: ResponseSchemas = {
  'calendar.bank-holidays': { data: list, meta: META, source: SOURCE },
  'calendar.bank-holidays.year': { data: list, meta: META, source: SOURCE },
  'calendar.bank-holidays.next': {
    data: obj({ bank_holidays: arr(obj({ ...holiday, days_until: ext(int(), 'whole days from today (UK) to the holiday') })) }),
    meta: META,
    source: `${SOURCE}: "design it consistently with the list", the list's record plus days_until`,
  },
  'calendar.regions': { data: obj({ regions: arr(obj({ slug: REGION, name: str() })) }), meta: META, source: SOURCE },
};
