/** The calendar domain: bank holidays from the mirror, else the snapshot shipped in data/. */
import { calendarRoutes } from './routes.js';
import { declareDomain, handlers, type DomainManifest } from '../manifest.js';
import { BANK_HOLIDAYS_INFO } from './datasets.js';
import { calendarRegion } from './regions.js';

// The bank-holiday handlers read the synced copy when there is one (regions is shipped data only).
const local = handlers(() => import('./handlers.js'), { optionalDatasets: [BANK_HOLIDAYS_INFO] });

export const manifest: DomainManifest = declareDomain({
  name: 'calendar',
  routes: calendarRoutes,
  // No `datasets` on the handlers: they answer from the shipped snapshot when bank-holidays is not synced.
  local: {
    'calendar.bank-holidays': local('bankHolidays'),
    'calendar.bank-holidays.next': local('bankHolidaysNext'),
    'calendar.bank-holidays.year': local('bankHolidaysYear'),
    'calendar.regions': local('regions', { optionalDatasets: [] }),
  },
  datasets: [{ info: BANK_HOLIDAYS_INFO, sync: () => import('./sync.js').then((m) => m.bankHolidays) }],
  vocabularies: { region: calendarRegion },
  responses: () => import('./schemas.js').then((m) => m.responses),
  commands: { name: 'calendar', load: () => import('./commands.js').then((m) => m.register) },
  // its section(s) of the area profile (src/domains/area-section.ts; order as spec 5-places.md lists them)
  area: [
    { name: 'calendar', order: 100, load: () => import('./area-section.js').then((m) => m.section) },
  ],
});
