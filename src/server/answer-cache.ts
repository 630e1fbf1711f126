/**
 * Answers of routes that read no mirror file (`cacheable` in routing.ts): their answer depends only on the
 * request, the shipped data (fixed for the process) and the date, and UK and UTC days both begin on a
 * whole UTC hour (HandlerContext.now), so an answer is kept for the rest of its UTC hour. Serialised,
 * tagged and gzipped once; at most ANSWER_CACHE_ENTRIES answers and ANSWER_CACHE_BYTES bytes, the oldest
 * dropped first.
 */
import type { Route } from '../registry.js';

const ANSWER_CACHE_ENTRIES = 1000;
const ANSWER_CACHE_BYTES = 32 * 1024 * 1024;
export const HOUR_MS = 3_600_000;

export interface CachedAnswer {
  route: Route;
  hour: number;
  body: Buffer;
  etag: string;
  gz?: Buffer;
}

export class AnswerCache {
  private readonly answers = new Map<string, CachedAnswer>();
  private bytes = 0;

  get size(): number {
    return this.answers.size;
  }

  /** The answer cached for this exact request target in the UTC hour of `t`. */
  lookup(target: string, t: number): CachedAnswer | undefined {
    const hit = this.answers.get(target);
    return hit && hit.hour === Math.floor(t / HOUR_MS) ? hit : undefined;
  }

  remember(target: string, route: Route, body: string, etag: string, t: number): void {
    const entry: CachedAnswer = { route, hour: Math.floor(t / HOUR_MS), body: Buffer.from(body, 'utf8'), etag };
    const old = this.answers.get(target);
    if (old) {
      this.answers.delete(target);
      this.bytes -= old.body.length;
    }
    this.answers.set(target, entry);
    this.bytes += entry.body.length;
    // Oldest first (insertion order) until both bounds hold.
    for (const [k, v] of this.answers) {
      if (this.answers.size <= ANSWER_CACHE_ENTRIES && this.bytes <= ANSWER_CACHE_BYTES) break;
      this.answers.delete(k);
      this.bytes -= v.body.length;
    }
  }
}
