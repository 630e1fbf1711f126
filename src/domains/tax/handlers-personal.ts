// SCAFFOLD: replaced by the real handlers (work in progress this session).
import { ApiError } from '../../contract/errors.js';
import type { Handler } from '../../contract/types.js';

export const taxYearsList: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const taxYearsCurrent: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const taxYearsGet: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const incomeBands: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const incomeCalculate: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const niThresholds: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const niCategories: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const niCalculate: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const takeHome: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const compare: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const employerCost: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const studentLoanThresholds: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const studentLoanCalculate: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const pensionAllowances: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
