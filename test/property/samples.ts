/**
 * The property domain's conformance samples (test/server/conformance.test.ts, via test/support/route-samples.ts):
 * one valid call per route, some error calls, and how the fixture mirror gets its data: the real excerpts in test/fixtures/property/ (HPI, planning data, price paid) and the generated council-tax ODS.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesOf, buildDataset } from '../support/mirror-helper.js';
import { buildOds } from './ods-fixture.js';
import type { DomainSamples } from '../support/samples-types.js';

const FIXTURES = fixturesOf('property');

export const samples: DomainSamples = {
  unansweredExamples: {
    'property listed-buildings 31599893': { code: 1, error: 'not_found', why: 'the fixture\'s listed buildings excerpt does not hold entity 31599893' },
  },
  routes: [
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
  ],
  errors: [
    { route: 'property.listed-buildings.get', method: 'GET', path: '/v1/property/listed-buildings/1' },
    { route: 'property.price-paid.search', method: 'GET', path: '/v1/property/price-paid/search' },
  ],
  datasets: ['hpi', 'listed-buildings', 'conservation-areas', 'price-paid', 'council-tax'],
  build: async ({ dataDir, mirror }) => {
    const ods = join(dataDir, 'Tables_1-9_2026-27.ods');
    await Promise.all([
      buildDataset('hpi', join(FIXTURES, 'uk-hpi', 'UK-HPI-full-file-sample.csv'), mirror),
      buildDataset('listed-buildings', join(FIXTURES, 'planning-data', 'listed-building.csv'), mirror),
      buildDataset('conservation-areas', join(FIXTURES, 'planning-data', 'conservation-area.csv'), mirror),
      buildDataset('price-paid', join(FIXTURES, 'land-registry-ppd', 'pp-complete.csv'), mirror),
      (async () => {
        writeFileSync(ods, buildOds());
        await buildDataset('council-tax', ods, mirror);
      })(),
    ]);
  },
  lake: {
    datasets: ['price-paid', 'hpi', 'council-tax', 'listed-buildings', 'conservation-areas'],
    check: async (lake) => {
      // price paid stored by postcode within each year
      await lake.expectSorted('price-paid', 'price_paid', ['postcode']);
    },
  },
};
