/**
 * A `GET /v1/area/{postcode}` answer in the shape of ../shared/spec/5-places.md, for the page tests while the
 * places branch has no area route: its crime, schools and food hygiene sections are composed here from the
 * same server's own domain routes (as the spec says the route builds them), the others `not_synced`.
 * The page under test never sees this module: the test serves its answer at /v1/area/… in the browser.
 */
export interface Place {
  postcode: string;
  lat: number;
  lng: number;
  radiusKm: number;
}

type Get = (path: string) => Promise<{ data: unknown; pagination?: { total: number } }>;

const NOT_SYNCED = (dataset: string) => ({ status: 'not_synced', sync: `publicdata sync ${dataset}` });

export async function areaAnswer(p: Place, get: Get): Promise<unknown> {
  const at = `lat=${p.lat}&lng=${p.lng}&radius_km=${p.radiusKm}`;
  const stats = (await get(`/v1/crime/statistics?${at}`)).data as { months: { from: string; to: string }; total: number; by_category: unknown; by_month: unknown };
  const schools = await get(`/v1/schools?${at}&per_page=10`);
  const food = await get(`/v1/food-hygiene/establishments?${at}&sort=distance&per_page=5`);
  const crime =
    stats.total > 0
      ? { status: 'ok', as_of: stats.months.to, source: [`/v1/crime/statistics?${at}&month_from=${stats.months.from}&month_to=${stats.months.to}`], months: stats.months, radius_km: p.radiusKm, total: stats.total, by_category: stats.by_category, by_month: stats.by_month }
      : { status: 'no_coverage', note: 'no street crime loaded for this place' };
  return {
    data: {
      postcode: {
        postcode: p.postcode,
        outcode: p.postcode.split(' ')[0],
        status: 'live',
        location: { latitude: p.lat, longitude: p.lng, quality: 1 },
        country: { code: 'E92000001', name: 'England' },
        local_authority: { code: 'E00000000', name: 'test authority' },
      },
      sections: {
        property: {
          status: 'ok', as_of: '2026-09-30', source: ['/v1/property/price-paid/search?postcode=ZZ9'],
          price_paid: { sector: { area: 'ZZ9 9', months: { from: '2025-10', to: '2026-09' }, sales: 7, median_price: 250000, mean_price: 260000, by_property_type: [{ property_type: 'terraced', sales: 4, median_price: 230000 }, { property_type: 'flat', sales: 3, median_price: 180000 }] } },
        },
        crime,
        schools: { status: 'ok', as_of: '2026-02-28', source: [`/v1/schools?${at}`], radius_km: p.radiusKm, count: schools.pagination!.total, nearest: schools.data },
        food_hygiene: { status: 'ok', as_of: '2020-11-04', source: [`/v1/food-hygiene/establishments?${at}`], radius_km: p.radiusKm, count: food.pagination!.total },
        road_safety: NOT_SYNCED('road-safety'),
        energy: NOT_SYNCED('energy'),
      },
    },
    meta: { radius_km: p.radiusKm, months: 12, missing: ['road_safety', 'energy'] },
  };
}
