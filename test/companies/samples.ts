/**
 * The companies domain's conformance samples (test/server/conformance.test.ts, via test/support/route-samples.ts):
 * one valid call per route, some error calls, and how the fixture mirror gets its data: the real register rows plus labelled generated ones, PSC lines, and accounts (generated filings and one real document).
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { syncDataset } from '../../src/sync-runner.js';
import { buildDataset, fixturesOf } from '../support/mirror-helper.js';
import { buildTwoMonths, chFixture, csvText, GENERATED_LINES, REAL_LINES } from './fixture.js';
import { accountsDocument, memberName } from './accounts-gen.mjs';
import { buildZip } from '../support/zip.js';
import type { DomainSamples } from '../support/samples-types.js';
import { syncFrom } from '../support/sync-from.js';

const FIXTURES = fixturesOf('companies');

export const samples: DomainSamples = {
  // command examples naming real companies (Tesco, a Scottish number) the fixture's excerpt does not hold
  unansweredExamples: {
    ...Object.fromEntries(
      ['show 00445790', 'show SC123456', 'psc 00445790', 'psc-changes 00445790', 'network 00445790', 'filing-status 00445790', 'timeline 00445790'].map((a) => [
        `companies ${a}`,
        { code: 1, error: 'not_found', why: 'the fixture\'s register excerpt does not hold the company' },
      ]),
    ),
    'companies benchmark 00445790': { code: 1, error: 'not_found', why: 'the fixture\'s register excerpt does not hold the company' },
    'companies health 00445790': { code: 1, error: 'not_found', why: 'the fixture\'s accounts hold no filing of the company' },
  },
  routes: [
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
  ],
  errors: [
    { route: 'companies.get', method: 'GET', path: '/v1/companies/12345678' },
    { route: 'companies.search', method: 'GET', path: '/v1/companies/search?q=a' },
  ],
  datasets: ['companies', 'psc', 'accounts'],
  build: async ({ dataDir, mirror, cacheDir }) => {
    const ch = join(dataDir, 'BasicCompanyDataAsOneFile-2026-11-01.csv');
    const psc = join(dataDir, 'persons-with-significant-control-snapshot-2026-11-20.txt');
    const ac = join(dataDir, 'accounts');
    await Promise.all([
      // The real register rows plus the labelled generated ones, and the PSC lines.
      (async () => {
        writeFileSync(ch, csvText([...REAL_LINES, ...GENERATED_LINES]));
        await buildDataset('companies', ch, mirror);
      })(),
      (async () => {
        copyFileSync(chFixture('DERIVED-psc-snapshot-lines.txt'), psc);
        await buildDataset('psc', psc, mirror);
      })(),
      // Accounts: GENERATED filings (test/companies/accounts-gen.mjs) of two register companies, and one real
      // document (test/fixtures/companies/accounts), in a daily zip synced with --from.
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
    ]);
  },
  lake: {
    datasets: ['companies', 'psc', 'accounts'],
    build: async ({ mirror, src }) => {
      // two monthly register syncs (one company departs), the PSC lines, one real accounts zip
      await buildTwoMonths(dirname(mirror), [...REAL_LINES, ...GENERATED_LINES]);
      mkdirSync(src, { recursive: true });
      const psc = join(src, 'persons-with-significant-control-snapshot-2026-11-20.txt');
      writeFileSync(psc, readFileSync(chFixture('DERIVED-psc-snapshot-lines.txt'), 'utf8'));
      await buildDataset('psc', psc, mirror);
      await syncFrom('accounts', mirror, src, join(FIXTURES, 'accounts', 'Accounts_Bulk_Data-2023-03-02.zip'));
    },
    check: async (lake) => {
      // the table a reader needs: accounts with its periods, where the figures are
      expect(lake.columns('accounts', 'accounts_periods')).toEqual(expect.arrayContaining(['filing_id', 'period_end']));
    },
  },
};
