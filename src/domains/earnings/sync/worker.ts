/**
 * The workbook-parsing worker thread (pool.ts): receives a table file's bytes, answers its rows
 * as staging CSV (readAsheBytes, SheetJS; stageFile) or the error message. A plain ES module compiled by tsc beside pool.ts.
 */
import { parentPort } from 'node:worker_threads';
import { readAsheBytes } from './sheet.js';
import { stageFile } from './stage.js';
import type { ParseReply, ParseRequest } from './pool.js';

const port = parentPort;
if (!port) throw new Error('earnings/sync/worker.js runs as a worker thread only');
port.on('message', (req: ParseRequest) => {
  let reply: ParseReply;
  try {
    reply = { id: req.id, file: stageFile(readAsheBytes(req.bytes, req.name), req.status, req.name) };
  } catch (e) {
    reply = { id: req.id, error: (e as Error).message };
  }
  port.postMessage(reply);
});
