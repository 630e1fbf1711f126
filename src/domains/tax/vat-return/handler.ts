// SCAFFOLD: replaced by the real handlers (work in progress this session).
import { ApiError } from '../../../contract/errors.js';
import type { Handler } from '../../../contract/types.js';

export const vatReturnCalculate: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
