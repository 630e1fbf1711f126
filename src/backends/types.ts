import type { CallResult, RouteCall } from '../contract/types.js';

export interface Backend {
  readonly kind: 'live' | 'local';
  call(call: RouteCall): Promise<CallResult>;
}
