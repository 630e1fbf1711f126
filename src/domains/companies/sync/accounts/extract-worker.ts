/**
 * Accounts extraction worker thread (started by sync/accounts/pool.ts): inflates its batches of members
 * from the zip by offset, extracts them and appends their rows to this worker's own staging CSV files, so
 * the main thread only reads the zip's directory and moves small entry records. Batches run one at a time.
 */
import { serve } from '../../../../workers/serve.js';
import { compile } from './concepts.js';
import { Stager, type BatchResult, type MemberJob } from './stage.js';

// A worker may start before its staging files are known (spawnWorkers): they come as the first message.
// The concept map is compiled meanwhile, so the first document does not wait for it.
compile();
let stager: Stager | undefined;
let stageError: string | undefined;

serve<MemberJob[], BatchResult>({
  serial: true, // batches run one at a time, after the staging files
  other(m) {
    const { filings, periods } = m as { type: 'stage'; filings: string; periods: string };
    try {
      stager = new Stager(filings, periods);
    } catch (e) {
      stageError = (e as Error).message; // every batch then fails with it
    }
  },
  close: () => stager?.close(),
  request(jobs) {
    if (!stager) throw new Error(stageError ?? 'extraction worker: jobs before its staging files');
    return stager.run(jobs);
  },
});
