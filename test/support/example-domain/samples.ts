/**
 * The example domain's conformance samples (test/server/conformance.test.ts): one valid call per example
 * route and some more (more calls than serve's 10-a-minute window holds, so the live client's pacing is
 * exercised with no real domain registered), and calls that answer errors. No mirror dataset.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDataset, fixturesOf } from '../mirror-helper.js';
import type { DomainSamples, Sample } from '../samples-types.js';
import { recordsCsv } from './records-gen.js';

export const samples: DomainSamples = {
  routes: [
    { route: 'example.items', method: 'GET', path: '/v1/example/items' },
    { route: 'example.items', method: 'GET', path: '/v1/example/items?colour=red&per_page=5' },
    { route: 'example.items', method: 'GET', path: '/v1/example/items?name=number%201&page=2&per_page=3' },
    { route: 'example.items', method: 'GET', path: '/v1/example/items?lat=51.1&lng=-0.9&radius_km=20' },
    // every page of 6 (60 items: 10 pages), so that the calls are more than two of serve's windows
    ...Array.from({ length: 10 }, (_, k): Sample => ({ route: 'example.items', method: 'GET', path: `/v1/example/items?per_page=6&page=${k + 1}` })),
    { route: 'example.item', method: 'GET', path: '/v1/example/items/3' },
    { route: 'example.item', method: 'GET', path: '/v1/example/items/60' },
    { route: 'example.summary', method: 'GET', path: '/v1/example/summary' },
    { route: 'example.summary', method: 'GET', path: '/v1/example/summary?basis=totals&colour=blue' },
    { route: 'example.notes', method: 'GET', path: '/v1/example/notes' },
    { route: 'example.calculate', method: 'POST', path: '/v1/example/calculate', body: { amount: 30 } },
    { route: 'example.records', method: 'GET', path: '/v1/example/records?colour=red&per_page=5' },
    { route: 'example.events', method: 'GET', path: '/v1/example/events' },
    { route: 'example.calculate', method: 'POST', path: '/v1/example/calculate', body: { amount: 100, colour: 'green', label: 'abc' } },
  ],
  errors: [
    { route: 'example.item', method: 'GET', path: '/v1/example/items/61' },
    { route: 'example.item', method: 'GET', path: '/v1/example/items/abc' },
    { route: 'example.items', method: 'GET', path: '/v1/example/items?colour=purple' },
    { route: 'example.items', method: 'GET', path: '/v1/example/items?lat=51' },
    { route: 'example.calculate', method: 'POST', path: '/v1/example/calculate', body: { amount: -1 } },
    { route: 'example.calculate', method: 'POST', path: '/v1/example/calculate', body: { amount: 5, label: 'NOT LOWER' } },
  ],
  datasets: ['example-records', 'example-events'],
  build: async ({ mirror, dataDir }) => {
    await buildDataset('example-records', join(fixturesOf('example'), 'records-complete.csv'), mirror);
    const days = join(dataDir, 'example-events-src');
    mkdirSync(days, { recursive: true });
    const day = (d: string, from: number, to: number) => recordsCsv(from, to).split('\n').map((l, k) => (k === 0 || l === '' ? l : l.replace(/,\d{4}-\d{2}-\d{2},/, `,${d},`))).join('\n');
    writeFileSync(join(days, 'events-2026-11-01.csv'), day('2026-11-01', 1, 12));
    await buildDataset('example-events', join(days, 'events-2026-11-01.csv'), mirror);
  },
};
