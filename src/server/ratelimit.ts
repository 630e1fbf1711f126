/**
 * Per-key fixed-window rate limit (spec doc 1 §8): windows are aligned on whole minutes of the server's
 * clock, so `X-RateLimit-Reset` (Unix seconds) is exact and the same for every request of the window.
 * A request refused with 429 does not use the window.
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  reset: number;
  /** Whole seconds to wait (429 only), at least 1. */
  retryAfter?: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly windowMs = 60_000) {}

  private start(nowMs: number): number {
    return Math.floor(nowMs / this.windowMs) * this.windowMs;
  }

  /** Take one request of the key's window when there is room. */
  take(id: string, limit: number, nowMs: number): RateDecision {
    const start = this.start(nowMs);
    let w = this.windows.get(id);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      this.windows.set(id, w);
    }
    const end = start + this.windowMs;
    const reset = Math.ceil(end / 1000);
    if (w.count >= limit) {
      return { allowed: false, limit, remaining: 0, reset, retryAfter: Math.max(1, Math.ceil((end - nowMs) / 1000)) };
    }
    w.count++;
    return { allowed: true, limit, remaining: limit - w.count, reset };
  }

  /** The window state without taking a request (for answers that are not counted). */
  peek(id: string, limit: number, nowMs: number): RateDecision {
    const start = this.start(nowMs);
    const w = this.windows.get(id);
    const used = w && w.start === start ? w.count : 0;
    return { allowed: used < limit, limit, remaining: Math.max(0, limit - used), reset: Math.ceil((start + this.windowMs) / 1000) };
  }
}
