/**
 * Accounts extraction worker thread (started by sync/accounts/pool.ts): extracts batches of members and
 * appends their rows to this worker's own staging CSV files, so the main thread only moves file names.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Stager, type MemberJob } from './stage.js';

const { filings, periods } = workerData as { filings: string; periods: string };
const stager = new Stager(filings, periods);

parentPort!.on('message', (m: { type: 'jobs'; id: number; jobs: MemberJob[] } | { type: 'close' }) => {
  if (m.type === 'close') {
    stager.close();
    parentPort!.postMessage({ type: 'closed' });
    return;
  }
  try {
    parentPort!.postMessage({ type: 'done', id: m.id, ...stager.run(m.jobs) });
  } catch (e) {
    parentPort!.postMessage({ type: 'error', id: m.id, message: (e as Error).message });
  }
});
