/**
 * The workbook-parsing worker thread (pool.ts): receives a table file's bytes, answers its rows as staging
 * CSV (readAsheBytes, SheetJS; stageFile) or the error message. Bundled as dist/cli/earnings-parse-worker.cjs.
 */
import { serve } from '../../../workers/serve.js';
import { readAsheBytes } from './sheet.js';
import { stageFile, type StagedFile } from './stage.js';
import type { ParseRequest } from './pool.js';

serve<ParseRequest, StagedFile>({ request: (req) => stageFile(readAsheBytes(req.bytes, req.name), req.status, req.name) });
