/**
 * One valid call per route that has a local handler, on the test fixtures (test/fixtures/upstream, the
 * mirror built by buildFixtureMirror), plus a few calls that answer errors. The serve conformance test
 * runs each through `publicdata serve` and the live client and compares with `--source local`; it fails
 * when a route with a local handler has no sample here, so add one with the handler.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HttpMethod } from '../../src/contract/types.js';
import { syncDataset } from '../../sync/framework.js';
import { FIXTURES, buildDataset } from '../property/mirror-helper.js';
import { buildOds } from '../property/ods-fixture.js';
import { itemDetailCsv, itemGroupCsv, itemsCsv, generateMot, resultsCsv } from '../vehicles/mot-fixture.js';
import { writeStats19Year } from '../vehicles/stats19-fixture.js';
import { generateVeh, writeVeh } from '../vehicles/veh-fixture.js';
import { REAL, writeAadfZip, writeRoadTypeFile } from '../vehicles/traffic-fixture.js';
import { chFixture, csvText, GENERATED_LINES, REAL_LINES } from '../companies/fixture.js';
import { accountsDocument, memberName } from './accounts-gen.mjs';
import { buildZip } from './zip.js';

export interface Sample {
  route: string;
  method: HttpMethod;
  /** Path with its query string, as `publicdata api` takes it. */
  path: string;
  body?: unknown;
}

const vatTx = (over: Record<string, unknown> = {}) => ({
  id: 'T1',
  date: '2026-08-01',
  type: 'sale',
  net_amount: 100,
  vat_amount: 20,
  gross_amount: 120,
  vat_rate: 'standard',
  vat_rate_percentage: 20,
  supply_type: 'domestic',
  is_capital_asset: false,
  ...over,
});

export const ROUTE_SAMPLES: Sample[] = [
  { route: 'property.listed-buildings.list', method: 'GET', path: '/v1/property/listed-buildings?name=wall&per_page=5' },
  { route: 'property.listed-buildings.get', method: 'GET', path: '/v1/property/listed-buildings/31537854' },
  { route: 'property.conservation-areas.list', method: 'GET', path: '/v1/property/conservation-areas?per_page=5' },
  { route: 'property.conservation-areas.get', method: 'GET', path: '/v1/property/conservation-areas/44006852' },
  { route: 'property.hpi', method: 'GET', path: '/v1/property/hpi?region=Wokingham' },
  { route: 'property.hpi.regions', method: 'GET', path: '/v1/property/hpi/regions' },
  { route: 'property.council-tax', method: 'GET', path: '/v1/property/council-tax?band=D&per_page=5' },
  { route: 'property.price-paid.search', method: 'GET', path: '/v1/property/price-paid/search?postcode=NE4%209DN' },
  { route: 'property.price-paid.address', method: 'GET', path: '/v1/property/price-paid/address?street=MATFEN%20PLACE' },
  { route: 'property.price-paid.statistics', method: 'GET', path: '/v1/property/price-paid/statistics?postcode=NE4' },
  { route: 'property.price-paid.get', method: 'GET', path: '/v1/property/price-paid/5BBE9CB3-6332-4EB0-9CD3-8737CEA4A65A' },
  { route: 'tax.years.list', method: 'GET', path: '/v1/tax/years?per_page=10&page=2' },
  { route: 'tax.years.current', method: 'GET', path: '/v1/tax/years/current' },
  { route: 'tax.years.get', method: 'GET', path: '/v1/tax/years/2025-26' },
  { route: 'tax.income.bands', method: 'GET', path: '/v1/tax/income/bands' },
  { route: 'tax.income.bands.year', method: 'GET', path: '/v1/tax/income/bands/2024-25' },
  { route: 'tax.income.calculate', method: 'POST', path: '/v1/tax/income/calculate', body: { gross_income: 60000, region: 'scotland' } },
  { route: 'tax.ni.thresholds', method: 'GET', path: '/v1/tax/national-insurance/thresholds' },
  { route: 'tax.ni.thresholds.year', method: 'GET', path: '/v1/tax/national-insurance/thresholds/2023-24' },
  { route: 'tax.ni.categories', method: 'GET', path: '/v1/tax/national-insurance/categories' },
  { route: 'tax.ni.categories.year', method: 'GET', path: '/v1/tax/national-insurance/categories/2025-26' },
  { route: 'tax.ni.calculate', method: 'POST', path: '/v1/tax/national-insurance/calculate', body: { annual_salary: 52000 } },
  { route: 'tax.take-home.calculate', method: 'POST', path: '/v1/tax/take-home/calculate', body: { gross_income: 45000, student_loan_plans: ['plan_2'] } },
  { route: 'tax.compare', method: 'POST', path: '/v1/tax/compare', body: { scenario_a: { gross_income: 40000 }, scenario_b: { gross_income: 50000, region: 'scotland' } } },
  { route: 'tax.employer-cost.calculate', method: 'POST', path: '/v1/tax/employer-cost/calculate', body: { annual_salary: 40000 } },
  { route: 'tax.vat.rates', method: 'GET', path: '/v1/tax/vat/rates' },
  { route: 'tax.vat.rates.year', method: 'GET', path: '/v1/tax/vat/rates/2025-26' },
  { route: 'tax.vat.flat-rate-percentages', method: 'GET', path: '/v1/tax/vat/flat-rate-percentages' },
  { route: 'tax.vat.calculate', method: 'POST', path: '/v1/tax/vat/calculate', body: { amount: 99.99 } },
  {
    route: 'tax.vat.return.calculate',
    method: 'POST',
    path: '/v1/tax/vat/return/calculate?breakdown_detail=summary',
    body: {
      company: { vat_registration_number: 'GB123456789', vat_schemes: [{ scheme: 'standard', effective_from: '2020-01-01', effective_to: null }], partially_exempt: false },
      period: { start_date: '2026-07-01', end_date: '2026-09-30' },
      transactions: [vatTx(), vatTx({ id: 'T2', type: 'purchase', net_amount: 50, vat_amount: 10, gross_amount: 60 })],
    },
  },
  { route: 'tax.cgt.rates', method: 'GET', path: '/v1/tax/capital-gains/rates' },
  { route: 'tax.cgt.rates.year', method: 'GET', path: '/v1/tax/capital-gains/rates/2024-25' },
  { route: 'tax.cgt.allowances', method: 'GET', path: '/v1/tax/capital-gains/allowances' },
  { route: 'tax.cgt.allowances.year', method: 'GET', path: '/v1/tax/capital-gains/allowances/2023-24' },
  { route: 'tax.cgt.calculate', method: 'POST', path: '/v1/tax/capital-gains/calculate', body: { gain: 20000, asset_type: 'other_assets', taxpayer_band: 'higher' } },
  { route: 'tax.dividends.rates', method: 'GET', path: '/v1/tax/dividends/rates' },
  { route: 'tax.dividends.rates.year', method: 'GET', path: '/v1/tax/dividends/rates/2025-26' },
  { route: 'tax.dividends.calculate', method: 'POST', path: '/v1/tax/dividends/calculate', body: { dividend_income: 5000, taxpayer_band: 'basic' } },
  { route: 'tax.student-loan.thresholds', method: 'GET', path: '/v1/tax/student-loan/thresholds' },
  { route: 'tax.student-loan.thresholds.year', method: 'GET', path: '/v1/tax/student-loan/thresholds/2025-26' },
  { route: 'tax.student-loan.calculate', method: 'POST', path: '/v1/tax/student-loan/calculate', body: { annual_income: 30000, plan_types: ['plan_2', 'postgraduate'] } },
  { route: 'tax.pension.allowances', method: 'GET', path: '/v1/tax/pension/allowances' },
  { route: 'tax.pension.allowances.year', method: 'GET', path: '/v1/tax/pension/allowances/2025-26' },
  { route: 'tax.corporation.rates', method: 'GET', path: '/v1/tax/corporation/rates' },
  { route: 'tax.corporation.rates.year', method: 'GET', path: '/v1/tax/corporation/rates/2024-25' },
  { route: 'tax.corporation.calculate', method: 'POST', path: '/v1/tax/corporation/calculate', body: { profit: 120000 } },
  { route: 'vehicles.licensing', method: 'GET', path: '/v1/vehicles/licensing?make=FO&per_page=5' },
  { route: 'vehicles.registrations', method: 'GET', path: '/v1/vehicles/registrations?make=KIA&geography=GB&per_page=5' },
  { route: 'vehicles.mot-tests', method: 'GET', path: '/v1/vehicles/mot-tests?make=FORD&result=failed&per_page=5' },
  { route: 'vehicles.mot-pass-rates', method: 'GET', path: '/v1/vehicles/mot-pass-rates?make=FORD&model=FOCUS' },
  { route: 'vehicles.mot-failures', method: 'GET', path: '/v1/vehicles/mot-failures?make=FORD&dangerous_only=true' },
  { route: 'vehicles.collisions', method: 'GET', path: '/v1/vehicles/road-safety/collisions?year=2022&per_page=5' },
  { route: 'vehicles.collisions.get', method: 'GET', path: '/v1/vehicles/road-safety/collisions/2022010352073' },
  { route: 'vehicles.traffic.count-points', method: 'GET', path: '/v1/vehicles/traffic/count-points?per_page=5' },
  { route: 'vehicles.traffic.aadf', method: 'GET', path: '/v1/vehicles/traffic/aadf?count_point=6009' },
  { route: 'vehicles.traffic.regional', method: 'GET', path: '/v1/vehicles/traffic/regional?region=East%20Midlands' },
  { route: 'vehicles.traffic.local-authority', method: 'GET', path: '/v1/vehicles/traffic/local-authority?per_page=5' },
  { route: 'calendar.bank-holidays', method: 'GET', path: '/v1/calendar/bank-holidays?region=scotland' },
  { route: 'calendar.bank-holidays.next', method: 'GET', path: '/v1/calendar/bank-holidays/next' },
  { route: 'calendar.bank-holidays.year', method: 'GET', path: '/v1/calendar/bank-holidays/2026' },
  { route: 'calendar.regions', method: 'GET', path: '/v1/calendar/regions' },
  { route: 'energy.price-cap.periods', method: 'GET', path: '/v1/energy/price-cap/periods?per_page=5' },
  { route: 'energy.price-cap.periods.current', method: 'GET', path: '/v1/energy/price-cap/periods/current' },
  { route: 'energy.price-cap.periods.get', method: 'GET', path: '/v1/energy/price-cap/periods/2025-10' },
  { route: 'energy.price-cap.rates', method: 'GET', path: '/v1/energy/price-cap/rates?period=2025-10&fuel=gas' },
  { route: 'energy.price-cap.regions', method: 'GET', path: '/v1/energy/price-cap/regions' },
  { route: 'energy.price-cap.calculate', method: 'POST', path: '/v1/energy/price-cap/calculate', body: { electricity_kwh: 2700, gas_kwh: 11500, period: '2025-10' } },
  { route: 'food-hygiene.establishments', method: 'GET', path: '/v1/food-hygiene/establishments?lat=51.1856&lng=-0.6115&radius_km=2' },
  { route: 'food-hygiene.establishment', method: 'GET', path: '/v1/food-hygiene/establishments/1280734' },
  { route: 'food-hygiene.authorities', method: 'GET', path: '/v1/food-hygiene/authorities' },
  { route: 'food-hygiene.business-types', method: 'GET', path: '/v1/food-hygiene/business-types' },
  { route: 'food-hygiene.statistics', method: 'GET', path: '/v1/food-hygiene/statistics?local_authority=760' },
  { route: 'schools.search', method: 'GET', path: '/v1/schools?local_authority=Leeds&per_page=5' },
  { route: 'schools.detail', method: 'GET', path: '/v1/schools/107848' },
  { route: 'schools.inspections.statistics', method: 'GET', path: '/v1/schools/inspections/statistics?local_authority=383' },
  { route: 'companies.search', method: 'GET', path: '/v1/companies/search?q=nspired' },
  { route: 'companies.list', method: 'GET', path: '/v1/companies?postcode=AB&per_page=5' },
  { route: 'companies.get', method: 'GET', path: '/v1/companies/07687209' },
  { route: 'companies.statistics', method: 'GET', path: '/v1/companies/statistics' },
  { route: 'companies.geography', method: 'GET', path: '/v1/companies/geography/EC1' },
  { route: 'companies.sector-analytics', method: 'GET', path: '/v1/companies/sectors/62020/analytics' },
  { route: 'companies.filing-status', method: 'GET', path: '/v1/companies/14000002/filing-status' },
  { route: 'companies.timeline', method: 'GET', path: '/v1/companies/08209948/timeline' },
  { route: 'companies.sic-codes', method: 'GET', path: '/v1/companies/sic-codes?section=J' },
  { route: 'companies.sic-codes.get', method: 'GET', path: '/v1/companies/sic-codes/62020' },
  { route: 'companies.psc', method: 'GET', path: '/v1/companies/08209948/psc' },
  { route: 'companies.psc.changes', method: 'GET', path: '/v1/companies/09145694/psc/changes' },
  { route: 'companies.network', method: 'GET', path: '/v1/companies/07434180/network' },
  // Accounts (buildFixtureMirror: GENERATED filings of 14000001 and 14000002, both SIC 62020 on the register).
  { route: 'companies.financials', method: 'GET', path: '/v1/companies/14000001/financials?limit=5' },
  { route: 'companies.trends', method: 'GET', path: '/v1/companies/14000001/trends' },
  { route: 'companies.health', method: 'GET', path: '/v1/companies/14000002/health' },
  { route: 'companies.benchmark', method: 'GET', path: '/v1/companies/14000002/benchmark' },
  { route: 'companies.benchmarks', method: 'GET', path: '/v1/companies/benchmarks/62020' },
  { route: 'companies.compare', method: 'POST', path: '/v1/companies/compare', body: { company_numbers: ['14000001', '14000002', '00193009'] } },
  { route: 'companies.recent-filings', method: 'GET', path: '/v1/companies/recent-filings?per_page=5' },
  // Earnings (buildFixtureMirror: the REAL ASHE Table 8.7a 2020 only; Tables 4, 7, 14 not loaded: empty answers with a note).
  { route: 'earnings.regions', method: 'GET', path: '/v1/earnings/regions?basis=residence&level=region&population=all' },
  { route: 'earnings.industries', method: 'GET', path: '/v1/earnings/industries?level=section' },
  { route: 'earnings.occupations', method: 'GET', path: '/v1/earnings/occupations' },
  { route: 'earnings.percentile', method: 'POST', path: '/v1/earnings/percentile', body: { amount: 28000, population: 'all' } },

  // Crime (buildFixtureMirror: the real 2025-05 City of London street file, test/fixtures/crime).
  { route: 'crime.street', method: 'GET', path: '/v1/crime/street?force=city-of-london&month=2025-05&per_page=5' },
  { route: 'crime.outcomes', method: 'GET', path: '/v1/crime/outcomes/5dcf36aec35688cb126aabd863e5eb6bddbfef1dee38bc4827a7923e315a56dc' },
  { route: 'crime.statistics', method: 'GET', path: '/v1/crime/statistics?lat=51.5155&lng=-0.0922&radius_km=1' },
  { route: 'crime.categories', method: 'GET', path: '/v1/crime/categories' },
  { route: 'crime.forces', method: 'GET', path: '/v1/crime/forces' },
];

/** Calls that answer error envelopes (record not found, validation, 422), compared the same way. */
export const ERROR_SAMPLES: Sample[] = [
  { route: 'companies.get', method: 'GET', path: '/v1/companies/12345678' },
  { route: 'companies.search', method: 'GET', path: '/v1/companies/search?q=a' },
  { route: 'property.listed-buildings.get', method: 'GET', path: '/v1/property/listed-buildings/1' },
  { route: 'property.price-paid.search', method: 'GET', path: '/v1/property/price-paid/search' },
  { route: 'tax.years.get', method: 'GET', path: '/v1/tax/years/1900-01' },
  { route: 'tax.take-home.calculate', method: 'POST', path: '/v1/tax/take-home/calculate', body: { gross_income: 'lots' } },
  { route: 'tax.vat.return.calculate', method: 'POST', path: '/v1/tax/vat/return/calculate', body: { transactions: 'nope' } },
  { route: 'tax.ni.calculate', method: 'POST', path: '/v1/tax/national-insurance/calculate', body: { annual_salary: 50000, type: 'self_employed', director: true } },
  { route: 'calendar.bank-holidays.year', method: 'GET', path: '/v1/calendar/bank-holidays/20x6' },
  { route: 'energy.price-cap.periods.get', method: 'GET', path: '/v1/energy/price-cap/periods/2023-01' },
  { route: 'energy.price-cap.calculate', method: 'POST', path: '/v1/energy/price-cap/calculate', body: { electricity_kwh: -1 } },
  { route: 'food-hygiene.establishments', method: 'GET', path: '/v1/food-hygiene/establishments?lat=51.2' },
  { route: 'vehicles.licensing', method: 'GET', path: '/v1/vehicles/licensing?make=MA' },
  { route: 'earnings.regions', method: 'GET', path: '/v1/earnings/regions?basis=residence&year=2019' },

  { route: 'crime.street', method: 'GET', path: '/v1/crime/street?lsoa=E01000002&force=surrey' },
  { route: 'crime.outcomes', method: 'GET', path: `/v1/crime/outcomes/${'0'.repeat(64)}` },
];

/** The datasets buildFixtureMirror syncs. */
export const FIXTURE_DATASETS: readonly string[] = [
  'hpi', 'listed-buildings', 'conservation-areas', 'price-paid', 'council-tax', 'road-safety', 'road-traffic', 'companies', 'psc', 'accounts', 'vehicle-licensing', 'mot',
  'schools', 'earnings', 'food-hygiene', 'crime',
];

/**
 * Sync every mirror dataset the samples need into `<dataDir>/mirror` from the fixtures. Each dataset is
 * its own DuckDB file with its own lock, so the syncs run side by side: a small sync spends most of its
 * time waiting on DuckDB and fsync, and the waits overlap.
 */
export async function buildFixtureMirror(dataDir: string): Promise<string> {
  const mirror = join(dataDir, 'mirror');
  const cacheDir = join(dataDir, 'sync-cache');
  const ods = join(dataDir, 'Tables_1-9_2026-27.ods');
  const rs = join(dataDir, 'stats19');
  const tr = join(dataDir, 'road-traffic');
  const ch = join(dataDir, 'BasicCompanyDataAsOneFile-2026-11-01.csv');
  const psc = join(dataDir, 'persons-with-significant-control-snapshot-2026-11-20.txt');
  const ac = join(dataDir, 'accounts');
  const vl = join(dataDir, 'vehicle-licensing');
  const mt = join(dataDir, 'mot');
  const cr = join(dataDir, '2025-05-city-of-london-street.csv');
  await Promise.all([
    // Schools: the generated GIAS rows of the real Leeds MI excerpt's schools, and the real MI rows (test/fixtures/schools).
    syncDataset('schools', {
      mirrorDir: mirror, cacheDir, env: {},
      from: ['GENERATED-gias-leeds-rows.csv', 'ofsted-mi-latest-inspections-28-Feb-2026-leeds-first-40.csv'].map((f) => join(FIXTURES, '..', 'schools', f)),
    }),
    buildDataset('hpi', join(FIXTURES, 'uk-hpi', 'UK-HPI-full-file-sample.csv'), mirror),
    buildDataset('earnings', join(__dirname, '..', 'fixtures', 'earnings', 'Home Geography Table 8.7a   Annual pay - Gross 2020.xls'), mirror),
    buildDataset('listed-buildings', join(FIXTURES, 'planning-data', 'listed-building.csv'), mirror),
    buildDataset('conservation-areas', join(FIXTURES, 'planning-data', 'conservation-area.csv'), mirror),
    buildDataset('price-paid', join(FIXTURES, 'land-registry-ppd', 'pp-complete.csv'), mirror),
    (async () => {
      writeFileSync(ods, buildOds());
      await buildDataset('council-tax', ods, mirror);
    })(),
    // Vehicles: the publishers' files under their own names, synced with --from.
    (async () => {
      writeStats19Year(rs, 2022);
      await syncDataset('road-safety', { mirrorDir: mirror, cacheDir, env: {}, from: readdirSync(rs).map((f) => join(rs, f)) });
    })(),
    (async () => {
      mkdirSync(tr, { recursive: true });
      await writeAadfZip(join(tr, 'dft_traffic_counts_aadf.zip'));
      writeRoadTypeFile(join(tr, 'region_traffic_by_road_type.csv'), [2019, 2020]);
      copyFileSync(REAL.regional2025, join(tr, 'region_traffic_by_vehicle_type.csv'));
      copyFileSync(REAL.localAuthority, join(tr, 'local_authority_traffic.csv'));
      await syncDataset('road-traffic', { mirrorDir: mirror, cacheDir, env: {}, from: readdirSync(tr).map((f) => join(tr, f)) });
    })(),
    // Companies: the real register rows plus the labelled generated ones, and the PSC lines.
    (async () => {
      writeFileSync(ch, csvText([...REAL_LINES, ...GENERATED_LINES]));
      await buildDataset('companies', ch, mirror);
    })(),
    (async () => {
      copyFileSync(chFixture('DERIVED-psc-snapshot-lines.txt'), psc);
      await buildDataset('psc', psc, mirror);
    })(),
    // Accounts: GENERATED filings (test/support/accounts-gen.mjs) of two register companies, and one real
    // document (test/fixtures/upstream/companies-house/accounts), in a daily zip synced with --from.
    (async () => {
      mkdirSync(ac, { recursive: true });
      const full = (company: string, bsd: string, cur: Record<string, number>, prev: Record<string, number> = {}) =>
        ({ name: memberName(company, bsd), data: accountsDocument({ style: 'full', company, name: 'GENERATED LTD', bsd, cur, prev }) });
      writeFileSync(join(ac, 'Accounts_Bulk_Data-2026-10-01.zip'), await buildZip([
        full('14000001', '2025-06-30', { TurnoverRevenue: 900000, ProfitLossOnOrdinaryActivitiesBeforeTax: 60000, FixedAssets: 200000, CurrentAssets: 250000, Creditors: 120000, NetAssetsLiabilities: 330000 }),
        full('14000001', '2026-06-30',
          { TurnoverRevenue: 1200000, ProfitLossOnOrdinaryActivitiesBeforeTax: 150000, FixedAssets: 300000, CurrentAssets: 450000, Creditors: 200000, NetAssetsLiabilities: 550000, CashBankOnHand: 100000, AverageNumberEmployeesDuringPeriod: 14 },
          { TurnoverRevenue: 900000, ProfitLossOnOrdinaryActivitiesBeforeTax: 60000, FixedAssets: 200000, CurrentAssets: 250000 }),
        full('14000002', '2026-03-31', { TurnoverRevenue: 200000, ProfitLossOnOrdinaryActivitiesBeforeTax: -20000, FixedAssets: 10000, CurrentAssets: 40000, Creditors: 60000, NetAssetsLiabilities: -10000, CashBankOnHand: 5000 }),
        { name: 'Prod223_3517_00193009_20230331.html', data: readFileSync(chFixture('accounts/Prod223_3517_00193009_20230331.html')) },
      ]));
      await syncDataset('accounts', { mirrorDir: mirror, cacheDir, env: {}, from: ac });
    })(),
    // Licensing and MOT: GENERATED format-true files (test/vehicles/veh-fixture.ts, mot-fixture.ts).
    (async () => {
      mkdirSync(vl, { recursive: true });
      writeVeh(join(vl, 'df_VEH0120_GB.csv'), generateVeh('licensing', 'GB', 200, 31));
      writeVeh(join(vl, 'df_VEH0160_GB.csv'), generateVeh('registrations', 'GB', 120, 32));
      await syncDataset('vehicle-licensing', { mirrorDir: mirror, cacheDir, env: {}, from: vl });
    })(),
    (async () => {
      mkdirSync(mt, { recursive: true });
      const y = generateMot(2025, 600, 33);
      writeFileSync(join(mt, 'dft_test_result_extract_202501.csv'), resultsCsv(y.results, '2025'));
      writeFileSync(join(mt, 'dft_test_item_extract_202501.csv'), itemsCsv(y.items, '2025'));
      writeFileSync(join(mt, 'item_detail.csv'), itemDetailCsv());
      writeFileSync(join(mt, 'item_group.csv'), itemGroupCsv());
      await syncDataset('mot', { mirrorDir: mirror, cacheDir, env: {}, from: mt });
    })(),
    // Food hygiene: the four real FSA files (test/fixtures/food-hygiene), synced with --from.
    syncDataset('food-hygiene', { mirrorDir: mirror, cacheDir, env: {}, from: join(FIXTURES, '..', 'food-hygiene') }),
    // Crime: one real street file under its archive member name (a lone member CSV with --from).
    (async () => {
      copyFileSync(join(FIXTURES, '..', 'crime', '2025-05-city-of-london-street.csv'), cr);
      await syncDataset('crime', { mirrorDir: mirror, cacheDir, env: {}, from: cr });
    })(),
  ]);
  return mirror;
}
