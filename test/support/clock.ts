/**
 * A clock tests move by hand: `now` is frozen until a test (or the code under test, through `sleep`)
 * moves it, so waits are computed and recorded, never spent. Shared by a test server and a client, it
 * gives both the same time line (rate windows, Retry-After, Date headers) without real waiting.
 */
import { FIXED_NOW } from './handler-context.js';

export class FakeClock {
  t: number;
  /** Every wait asked of `sleep`, in ms, in order. */
  readonly waits: number[] = [];
  constructor(start = FIXED_NOW.getTime()) {
    this.t = start;
  }
  now = (): number => this.t;
  sleep = async (ms: number): Promise<void> => {
    this.waits.push(ms);
    this.t += Math.max(0, ms);
  };
  /** Move to the start of the next minute (plus ms). */
  nextMinute(ms = 0): void {
    this.t = Math.floor(this.t / 60_000) * 60_000 + 60_000 + ms;
  }
}
