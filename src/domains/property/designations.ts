// SCAFFOLD: replaced by the real handlers (work in progress this session).
import { ApiError } from '../../contract/errors.js';
import type { Handler } from '../../contract/types.js';

const nope: Handler = () => { throw new ApiError(503, 'not_available_offline', 'not built yet'); };
export const designationList = (_kind: 'listed-buildings' | 'conservation-areas'): Handler => nope;
export const designationGet = (_kind: 'listed-buildings' | 'conservation-areas'): Handler => nope;
