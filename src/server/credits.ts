/**
 * Credit balances of `publicdata serve --keys` (spec doc 1 §8), persisted across restarts.
 *
 * Each key has a monthly free allowance (renewed on the 1st of each month, UTC) and purchased credits
 * (never expire). A request spends the free allowance first, then purchased credits.
 * X-Credits-Remaining is both together.
 *
 * The state file holds, per key digest (sha256, never the key), the month of the allowance and what was
 * used of each part. It is written atomically (temp file in the same directory, then rename, mode 0600)
 * after every change, one write at a time: a burst of requests coalesces into the next write, and
 * `flush()` (on shutdown, and on SIGHUP) writes whatever is still pending. A crash loses at most the
 * charges of the write in progress; it never leaves a half-written file.
 *
 * A write that fails (the folder cannot be made, a full or read-only disk) is reported through
 * `onWriteError` and retried on a timer with exponential back-off (retryBaseMs doubling up to
 * retryMaxMs), whether or not more charges come; the first write that succeeds after failures is
 * reported through `onWriteRecovered`. `flush()` tries a few times more and then throws, so a shutdown
 * says the charges since the last write are lost instead of waiting for ever.
 */
import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { KeyPlan } from './keys.js';

interface KeyState {
  month: string;
  monthly_used: number;
  purchased_used: number;
}

interface StateFile {
  version: 1;
  keys: Record<string, KeyState>;
}

/** What a reservation took, so that a refund gives back exactly that. */
export interface Reservation {
  id: string;
  month: string;
  monthly: number;
  purchased: number;
}

export class CreditStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CreditStateError';
  }
}

export function monthOf(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 7);
}

export interface CreditStoreOptions {
  /** First wait before retrying a failed write, ms (default 250); doubled after each failure. */
  retryBaseMs?: number;
  /** Longest wait between retries, ms (default 30 s). */
  retryMaxMs?: number;
  /** Attempts `flush()` makes before it gives up (default 4: about 0.2 s of waiting at the default base). */
  flushAttempts?: number;
}

export class CreditStore {
  private readonly state: StateFile;
  private writing: Promise<void> | undefined;
  private dirty = false;
  private seq = 0;
  /** Failed writes in a row (0 once a write succeeds). */
  private failures = 0;
  private lastError: Error | undefined;
  /** When the first of the failed writes in a row was made (ms, performance.now()). */
  private failingSince = 0;
  /** Set while `flush` makes its own attempts (then no back-off timer: flush says when it tries again). */
  private flushing: { attempt: number } | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly flushAttempts: number;
  /**
   * A write failed (reported by the server's error log): `failures` in a row so far; the next attempt is
   * made in `retryInMs` (undefined: none, a flush has made its last attempt).
   */
  onWriteError: (e: Error, retry: { failures: number; retryInMs: number | undefined }) => void = () => {};
  /** A write succeeded after `failures` failed ones. */
  onWriteRecovered: (failures: number) => void = () => {};

  constructor(
    private readonly file: string,
    opts: CreditStoreOptions = {},
  ) {
    this.state = CreditStore.load(file);
    this.retryBaseMs = opts.retryBaseMs ?? 250;
    this.retryMaxMs = opts.retryMaxMs ?? 30_000;
    this.flushAttempts = Math.max(1, opts.flushAttempts ?? 4);
  }

  private static load(file: string): StateFile {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      // No file (ENOTDIR: a parent is not a folder, so none can exist there): no charge yet. Writing it
      // then fails and is retried, reported on the error log.
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return { version: 1, keys: {} };
      throw new CreditStateError(`Cannot read the credit state file ${file}: ${(e as Error).message}`);
    }
    try {
      const v = JSON.parse(text) as StateFile;
      if (v?.version !== 1 || typeof v.keys !== 'object' || v.keys === null) throw new Error('unexpected structure');
      return v;
    } catch (e) {
      // Refuse rather than start from full balances: that would hand out credits already spent.
      throw new CreditStateError(
        `The credit state file ${file} is not valid (${(e as Error).message}). Fix or remove it (removing resets every key's balance).`,
      );
    }
  }

  private entry(plan: KeyPlan, nowMs: number): KeyState {
    const month = monthOf(nowMs);
    let s = this.state.keys[plan.id];
    if (!s) {
      s = { month, monthly_used: 0, purchased_used: 0 };
      this.state.keys[plan.id] = s;
    } else if (s.month !== month) {
      s.month = month;
      s.monthly_used = 0;
    }
    return s;
  }

  remaining(plan: KeyPlan, nowMs: number): number {
    const s = this.state.keys[plan.id];
    const monthlyUsed = s && s.month === monthOf(nowMs) ? s.monthly_used : 0;
    const purchasedUsed = s?.purchased_used ?? 0;
    return Math.max(0, plan.monthlyCredits - monthlyUsed) + Math.max(0, plan.purchasedCredits - purchasedUsed);
  }

  /** Take `cost` credits (free allowance first), or nothing when the balance is short. */
  reserve(plan: KeyPlan, cost: number, nowMs: number): Reservation | undefined {
    if (this.remaining(plan, nowMs) < cost) return undefined;
    const s = this.entry(plan, nowMs);
    const monthly = Math.min(cost, Math.max(0, plan.monthlyCredits - s.monthly_used));
    const purchased = cost - monthly;
    s.monthly_used += monthly;
    s.purchased_used += purchased;
    if (cost > 0) this.changed();
    return { id: plan.id, month: s.month, monthly, purchased };
  }

  /** Give back a reservation (the request was not charged). */
  refund(r: Reservation): void {
    const s = this.state.keys[r.id];
    if (!s || (r.monthly === 0 && r.purchased === 0)) return;
    if (s.month === r.month) s.monthly_used = Math.max(0, s.monthly_used - r.monthly);
    s.purchased_used = Math.max(0, s.purchased_used - r.purchased);
    this.changed();
  }

  private changed(): void {
    this.dirty = true;
    // While a retry is scheduled, the change waits for it (the back-off holds whatever the request rate).
    if (!this.writing && !this.retryTimer) this.startWriting();
  }

  /**
   * Start the write loop. `writing` is cleared when that loop settles, and only if it is still the
   * current one: a loop that failed before its first await once settled before the assignment, was
   * never cleared, and left every later write (and `flush`, spinning on it at 100% CPU) stuck.
   */
  private startWriting(): Promise<void> {
    const run = this.writeLoop();
    this.writing = run;
    void run.finally(() => {
      if (this.writing === run) this.writing = undefined;
    });
    return run;
  }

  private async writeLoop(): Promise<void> {
    while (this.dirty) {
      this.dirty = false;
      const text = `${JSON.stringify(this.state)}\n`;
      const tmp = `${this.file}.${process.pid}.${++this.seq}.tmp`;
      try {
        await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
        await writeFile(tmp, text, { mode: 0o600 });
        await rename(tmp, this.file);
      } catch (e) {
        // Keep the change pending and try again after the back-off, charges or not.
        this.dirty = true;
        if (this.failures++ === 0) this.failingSince = performance.now();
        this.lastError = e as Error;
        if (this.flushing) {
          // flush retries on its own short schedule: say when, or that it was the last attempt
          this.onWriteError(e as Error, { failures: this.failures, retryInMs: this.flushing.attempt < this.flushAttempts ? this.flushDelay(this.flushing.attempt + 1) : undefined });
          return;
        }
        const retryInMs = Math.min(this.retryMaxMs, this.retryBaseMs * 2 ** Math.min(30, this.failures - 1));
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          if (this.dirty && !this.writing) this.startWriting();
        }, retryInMs);
        this.retryTimer.unref(); // the server keeps the process alive; a stopped one flushes instead
        this.onWriteError(e as Error, { failures: this.failures, retryInMs });
        return;
      }
      if (this.failures > 0) {
        const n = this.failures;
        this.failures = 0;
        this.onWriteRecovered(n);
      }
    }
  }

  /** The wait before flush's attempt `attempt` (the first is made at once). */
  private flushDelay(attempt: number): number {
    return attempt > 1 ? Math.min(1000, this.retryBaseMs * 2 ** (attempt - 2)) : 0;
  }

  /**
   * Wait until everything changed so far is on disk; after `flushAttempts` failed attempts of its own,
   * throw, saying how many writes failed in a row in all and over how long (the back-off's included).
   */
  async flush(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      while (this.writing) await this.writing;
      if (this.retryTimer) {
        clearTimeout(this.retryTimer);
        this.retryTimer = undefined;
      }
      if (!this.dirty) return;
      if (attempt > this.flushAttempts) {
        const secs = ((performance.now() - this.failingSince) / 1000).toFixed(1);
        throw new CreditStateError(
          `Could not write the credit state file ${this.file} (${this.lastError?.message ?? 'unknown error'}): ${this.failures} attempts failed over ${secs} s, the last ${this.flushAttempts} at shutdown; the charges since its last write are lost.`,
        );
      }
      if (attempt > 1) await new Promise((r) => setTimeout(r, this.flushDelay(attempt)));
      if (!this.writing) {
        this.flushing = { attempt };
        try {
          await this.startWriting();
        } finally {
          this.flushing = undefined;
        }
      }
    }
  }
}
