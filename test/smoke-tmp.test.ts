import { it } from 'vitest';
import { syncDataset } from '../sync/framework.js';
it('smoke', async () => {
  const opts = { mirrorDir: '/tmp/cs/mirror', cacheDir: '/tmp/cs/cache', progress: (e: any) => e.type === 'message' && console.log(e.text) };
  console.log(await syncDataset('companies', { ...opts, from: '/tmp/cs/BasicCompanyDataAsOneFile-2026-11-01.csv' }));
  console.log(await syncDataset('psc', { ...opts, from: '/tmp/cs/persons-with-significant-control-snapshot-2026-11-20.txt' }));
}, 60000);
