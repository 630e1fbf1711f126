// SCAFFOLD: replaced by the real handlers (work in progress this session).
import { ApiError } from '../../contract/errors.js';
import type { Handler } from '../../contract/types.js';

export const vatRates: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const flatRatePercentages: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const vatCalculate: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const cgtRates: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const cgtAllowances: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const cgtCalculate: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const dividendRates: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const dividendCalculate: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const corporationRates: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const corporationCalculate: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
