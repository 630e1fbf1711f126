/**
 * A parse worker thread of a food-hygiene sync (started by parse-slots.ts): stages the files it is sent,
 * one at a time, into its own staging CSV (workerData.stagingPath), with the same code as the main
 * thread (stage.ts). A malformed file is a FileFailure (cut back out of this worker's CSV); any other
 * error is posted back and fails the sync.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Staging, stageFile, type PlannedFile } from './stage.js';

type Message = { type: 'stage'; id: number; plan: PlannedFile; path: string; sha256: string; bytes: number } | { type: 'close' };

const staging = new Staging((workerData as { stagingPath: string }).stagingPath);
let queue: Promise<void> = Promise.resolve();
parentPort!.on('message', (m: Message) => {
  queue = queue.then(async () => {
    if (m.type === 'close') {
      staging.close();
      parentPort!.postMessage({ type: 'closed' });
      return;
    }
    try {
      parentPort!.postMessage({ type: 'done', id: m.id, result: await stageFile(staging, m.plan, m.path, m.sha256, m.bytes) });
    } catch (e) {
      parentPort!.postMessage({ type: 'error', id: m.id, message: (e as Error).message });
    }
  });
});
