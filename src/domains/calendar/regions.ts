/**
 * The calendar domain's `region` in the shared region vocabulary (issue 37; src/reference/regions.ts): the
 * three bank-holiday divisions by slug, or the ONS country or English region by name or GSS code
 * (data/calendar/regions.yaml: Wales, W92000004 and "North West" are england_and_wales).
 */
import { loadData } from '../../data.js';
import { regionResolver, type RegionTarget } from '../../reference/regions.js';

export const calendarRegion = regionResolver({
  what: 'a bank-holiday region (england_and_wales, scotland or northern_ireland)',
  unmatched: 'holds more than one bank-holiday region: name the country',
  targets: () => loadData<{ regions: RegionTarget[] }>('calendar/regions').regions,
});
