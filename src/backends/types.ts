import type { CallResult, RouteCall } from '../contract/types.js';

export interface Backend {
  readonly kind: 'live' | 'local';
  call(call: RouteCall): Promise<CallResult>;
  /** Whether n more credits fit in --max-credits (the live client; a backend without it spends none). */
  canSpend?(n: number): boolean;
}

export type Source = 'auto' | 'live' | 'local';
export const SOURCES: readonly Source[] = ['auto', 'live', 'local'];

export interface BackendOptions {
  source: Source;
  maxWait?: number;
  maxCredits?: number;
  verbose?: boolean;
  /** --quiet: no wait notices on the terminal. */
  quiet?: boolean;
}
