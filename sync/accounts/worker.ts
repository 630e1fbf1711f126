/**
 * Accounts extraction worker thread (started by sync/accounts/pool.ts): inflates its batches of members
 * from the zip by offset, extracts them and appends their rows to this worker's own staging CSV files, so
 * the main thread only reads the zip's directory and moves small entry records. Batches run one at a time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Stager, type MemberJob } from './stage.js';

const { filings, periods } = workerData as { filings: string; periods: string };
const stager = new Stager(filings, periods);

let queue: Promise<void> = Promise.resolve();
parentPort!.on('message', (m: { type: 'jobs'; id: number; jobs: MemberJob[] } | { type: 'close' }) => {
  queue = queue.then(async () => {
    if (m.type === 'close') {
      stager.close();
      parentPort!.postMessage({ type: 'closed' });
      return;
    }
    try {
      parentPort!.postMessage({ type: 'done', id: m.id, ...(await stager.run(m.jobs)) });
    } catch (e) {
      parentPort!.postMessage({ type: 'error', id: m.id, message: (e as Error).message });
    }
  });
});
