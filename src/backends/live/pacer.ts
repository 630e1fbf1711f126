/**
 * Pacer of the live client: the rate-limit window as the server reports it (X-RateLimit-Remaining and
 * X-RateLimit-Reset of every answer), counted down by our own requests, so a long job waits for the
 * reset instead of provoking 429. Slots are taken one at a time so concurrent calls count each other.
 * The server's clock is compared with ours through the Date header (docs/live-client.md, "Clocks").
 */

export interface PacerOptions {
  now: () => number;
  /** Waits (counted by the caller as time spent waiting). */
  wait: (ms: number) => Promise<void>;
  /** Margin added to X-RateLimit-Reset before the next window is used, ms. */
  resetMarginMs: number;
  /** Called before a wait for the window's reset, with the wait in ms and the plan's limit. */
  onWindowWait?: (ms: number, limit: number | undefined) => void;
}

export interface Slot {
  /** Set when the wait for the reset would pass the budget: the wait that would have been needed. */
  overBudgetMs?: number;
  waitedMs: number;
}

function num(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

export class Pacer {
  /** resetMs: local time at which the server's window resets. */
  private readonly win: { limit?: number; remaining?: number; resetMs?: number; rolledFrom?: number } = {};
  private inflight = 0;
  private gate: Promise<void> = Promise.resolve();
  /** Wake-ups for calls waiting on an answer in flight (the answer brings the new window's reset). */
  private answerWaiters: Array<() => void> = [];
  private readonly skew = { lower: -Infinity, upper: Infinity };

  constructor(private readonly o: PacerOptions) {}

  /**
   * Take a slot in the current window, waiting for the reset when it is used up. Serialised so that
   * concurrent calls count each other. Returns a wait that would pass the budget instead of waiting.
   */
  acquire(budgetLeftMs: number): Promise<Slot> {
    const { win, o } = this;
    const run = async (): Promise<Slot> => {
      let waited = 0;
      for (;;) {
        const t = o.now();
        if (win.resetMs !== undefined && t >= win.resetMs + o.resetMarginMs) {
          // A new window began; its budget is the plan limit until an answer says otherwise.
          win.remaining = win.limit;
          win.rolledFrom = win.resetMs;
          win.resetMs = undefined;
        }
        if (win.remaining !== undefined && win.remaining <= 0) {
          if (win.resetMs !== undefined) {
            const ms = win.resetMs + o.resetMarginMs - t;
            if (ms > budgetLeftMs - waited) return { overBudgetMs: ms, waitedMs: waited };
            o.onWindowWait?.(ms, win.limit);
            await o.wait(ms);
            waited += ms;
            continue;
          }
          if (this.inflight > 0) {
            // The new window's budget is spent by requests in flight; their answers carry its reset.
            await new Promise<void>((r) => this.answerWaiters.push(r));
            continue;
          }
        }
        if (win.remaining !== undefined) win.remaining--;
        this.inflight++;
        return { waitedMs: waited };
      }
    };
    const p = this.gate.then(run);
    this.gate = p.then(
      () => undefined,
      () => undefined,
    );
    return p;
  }

  /**
   * The request of a slot is over: count it out, learn the window from the answer's headers (when
   * there is an answer), and wake the calls waiting for an answer.
   */
  settle(answer?: { headers: Record<string, string>; sentAt: number; receivedAt: number }): void {
    this.inflight--;
    if (answer) {
      this.observeClock(answer.headers['date'], answer.sentAt, answer.receivedAt);
      this.observe(answer.headers, answer.receivedAt);
    }
    const ws = this.answerWaiters;
    this.answerWaiters = [];
    for (const w of ws) w();
  }

  /** After a 429: the window is used up until Retry-After (which wins over X-RateLimit-Reset). */
  holdFor(retryAfterMs: number | undefined): void {
    this.win.remaining = 0;
    this.win.resetMs = this.o.now() + (retryAfterMs ?? 0) - this.o.resetMarginMs;
  }

  /**
   * Server clock vs ours, from the Date header (1 s resolution). offset = server - local lies in
   * [lower, upper]. Applied only when it is certain to matter: the server is surely ahead (lower > 0:
   * its reset comes earlier on our clock) or surely behind (upper < 0: waiting by our clock would be
   * early, so wait by the lower bound, which is never early).
   */
  private observeClock(date: string | undefined, sentAt: number, receivedAt: number): void {
    if (!date) return;
    const d = Date.parse(date);
    if (Number.isNaN(d)) return;
    this.skew.lower = Math.max(this.skew.lower, d - receivedAt);
    this.skew.upper = Math.min(this.skew.upper, d + 1000 - sentAt);
  }

  clockOffset(): number {
    const { skew } = this;
    if (skew.lower > skew.upper) return 0; // inconsistent samples (clock stepped): trust our clock
    if (skew.lower > 0 || skew.upper < 0) return skew.lower;
    return 0;
  }

  private observe(headers: Record<string, string>, receivedAt: number): void {
    const { win } = this;
    const limit = num(headers['x-ratelimit-limit']);
    const remaining = num(headers['x-ratelimit-remaining']);
    const reset = num(headers['x-ratelimit-reset']);
    if (limit !== undefined) win.limit = limit;
    if (remaining === undefined || reset === undefined) return;
    const resetMs = reset * 1000 - this.clockOffset();
    // An answer from a window we already left (it was in flight across the reset) says nothing new.
    if (win.rolledFrom !== undefined && resetMs <= win.rolledFrom) return;
    // Requests sent but not answered yet will use the window too.
    const estimate = Math.max(0, remaining - Math.max(0, this.inflight));
    if (win.resetMs === undefined || resetMs > win.resetMs) {
      // A reset in the past (clock skew) still describes the current window: never before now.
      win.resetMs = Math.max(resetMs, receivedAt - this.o.resetMarginMs);
      win.remaining = estimate;
    } else {
      win.remaining = Math.min(win.remaining ?? estimate, estimate);
    }
  }
}
