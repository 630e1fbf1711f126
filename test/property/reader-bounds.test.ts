/** Issue 37, memory before rejection (moved from test/sync/reader-bounds.test.ts): price-paid's bounded first-lines check. */
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchFiles } from '../support/mirror-helper.js';
import { checkPricePaidFile } from '../../src/domains/property/sync/price-paid.js';
import { syncDataset } from '../../src/sync-runner.js';
import { fixture } from './ppd-fixture.js';

const file = scratchFiles('pd-bounds-');

describe('a line has a limit', () => {
  it('price-paid: garbage is refused from its first lines; the real file passes', () => {
    const garbage = file('garbage.csv', Array.from({ length: 500 }, (_, i) => `${i},lorem ipsum,${'z'.repeat(i % 50)}`).join('\n'));
    expect(() => checkPricePaidFile(garbage, 'garbage.csv')).toThrow(/garbage\.csv: 100 of its first 100 lines are not price-paid rows .*: not a price-paid CSV/);
    const long = file('long.csv', 'q'.repeat(300_000));
    expect(() => checkPricePaidFile(long, 'long.csv', { lineBytes: 64 * 1024 })).toThrow('long.csv: line 1 is longer than 64 KiB');
    expect(() => checkPricePaidFile(fixture('pp-complete.csv'), 'pp-complete.csv')).not.toThrow();
  });

  it('sync price-paid --from garbage fails on the bounded check, not after loading it', async () => {
    const garbage = file('pp-2025.csv', Array.from({ length: 2000 }, (_, i) => `row ${i}: not a transaction`).join('\n'));
    await expect(syncDataset('price-paid', { mirrorDir: join(dirname(garbage), 'mirror'), cacheDir: join(dirname(garbage), 'cache'), env: {}, from: garbage })).rejects.toThrow(
      /pp-2025\.csv: 100 of its first 100 lines are not price-paid rows/,
    );
  });
});
