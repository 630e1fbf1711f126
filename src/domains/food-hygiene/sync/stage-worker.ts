/**
 * A parse worker thread of a food-hygiene sync (started by parse-slots.ts): stages the files it is sent,
 * one at a time, into its own staging CSV (workerData.stagingPath), with the same code as the main
 * thread (stage.ts). A malformed file is a FileFailure (cut back out of this worker's CSV); any other
 * error is posted back and fails the sync.
 */
import { workerData } from 'node:worker_threads';
import { serve } from '../../../workers/serve.js';
import type { StageRequest } from './parse-slots.js';
import { Staging, stageFile, type FileResult } from './stage.js';

const staging = new Staging((workerData as { stagingPath: string }).stagingPath);
serve<StageRequest, FileResult>({
  serial: true,
  request: (m) => stageFile(staging, m.plan, m.path, m.sha256, m.bytes),
  close: () => staging.close(),
});
