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
 * `flush()` (on shutdown) writes whatever is still pending. A crash loses at most the charges of the
 * write in progress; it never leaves a half-written file.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
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

export class CreditStore {
  private readonly state: StateFile;
  private writing: Promise<void> | undefined;
  private dirty = false;
  private seq = 0;
  /** Errors of background writes (reported by the server's log; the next write retries). */
  onWriteError: (e: Error) => void = () => {};

  constructor(private readonly file: string) {
    this.state = CreditStore.load(file);
  }

  private static load(file: string): StateFile {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, keys: {} };
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
    this.writing ??= this.writeLoop();
  }

  private async writeLoop(): Promise<void> {
    try {
      while (this.dirty) {
        this.dirty = false;
        const text = `${JSON.stringify(this.state)}\n`;
        const tmp = `${this.file}.${process.pid}.${++this.seq}.tmp`;
        try {
          mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
          await writeFile(tmp, text, { mode: 0o600 });
          await rename(tmp, this.file);
        } catch (e) {
          // Keep the change pending: the next charge (or flush) writes again.
          this.onWriteError(e as Error);
          this.dirty = true;
          return;
        }
      }
    } finally {
      this.writing = undefined;
    }
  }

  /** Wait until everything changed so far is on disk. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.dirty) {
      this.writing = this.writeLoop();
      await this.writing;
    }
    if (this.dirty) throw new CreditStateError(`Could not write the credit state file ${this.file}.`);
  }
}
