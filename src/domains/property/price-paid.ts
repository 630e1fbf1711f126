// SCAFFOLD: replaced by the real handlers (work in progress this session).
import { ApiError } from '../../contract/errors.js';
import type { Handler } from '../../contract/types.js';

export const pricePaidSearch: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const pricePaidAddress: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const pricePaidStatistics: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const pricePaidGet: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
