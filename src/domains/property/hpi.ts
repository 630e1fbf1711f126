// SCAFFOLD: replaced by the real handlers (work in progress this session).
import { ApiError } from '../../contract/errors.js';
import type { Handler } from '../../contract/types.js';

export const hpi: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const hpiRegions: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
