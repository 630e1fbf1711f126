/**
 * Accounts extraction worker thread (started by sync/accounts/pool.ts): inflates its batches of members
 * from the zip by offset, extracts them and appends their rows to this worker's own staging CSV files, so
 * the main thread only reads the zip's directory and moves small entry records. Batches run one at a time.
 */
import { parentPort } from 'node:worker_threads';
import { compile } from './concepts.js';
import { Stager, type MemberJob } from './stage.js';

// A worker may start before its staging files are known (spawnWorkers): they come as the first message.
// The concept map is compiled meanwhile, so the first document does not wait for it.
compile();
let stager: Stager | undefined;
let stageError: string | undefined;

type Message = { type: 'stage'; filings: string; periods: string } | { type: 'jobs'; id: number; jobs: MemberJob[] } | { type: 'close' };
let queue: Promise<void> = Promise.resolve();
parentPort!.on('message', (m: Message) => {
  queue = queue.then(async () => {
    if (m.type === 'stage') {
      try {
        stager = new Stager(m.filings, m.periods);
      } catch (e) {
        stageError = (e as Error).message; // every batch then fails with it
      }
      return;
    }
    if (m.type === 'close') {
      stager?.close();
      parentPort!.postMessage({ type: 'closed' });
      return;
    }
    if (!stager) {
      parentPort!.postMessage({ type: 'error', id: m.id, message: stageError ?? 'extraction worker: jobs before its staging files' });
      return;
    }
    const run = stager;
    try {
      parentPort!.postMessage({ type: 'done', id: m.id, ...(await run.run(m.jobs)) });
    } catch (e) {
      parentPort!.postMessage({ type: 'error', id: m.id, message: (e as Error).message });
    }
  });
});
