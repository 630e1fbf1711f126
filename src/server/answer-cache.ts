/**
 * Answers of routes that read no mirror file (`cacheable` in routing.ts): their answer depends only on the
 * request, the shipped data (fixed for the process) and the date, and UK and UTC days both begin on a
 * whole UTC hour (HandlerContext.now), so an answer is kept for the rest of its UTC hour. Serialised,
 * tagged and gzipped once; at most ANSWER_CACHE_ENTRIES answers and ANSWER_CACHE_BYTES bytes, the oldest
 * dropped first.
 *
 * A GET answer is kept under its exact request target; a POST answer (a calculator) under its target and
 * its exact body text (`postKey`), for bodies of at most POST_BODY_MAX characters: a script that asks the same
 * calculation again, as batch jobs and pages do, is answered without parsing, validating and computing
 * it again. Only 200 answers are kept; every request is still authenticated, rate-limited and charged.
 */
import type { Route } from '../registry.js';

const ANSWER_CACHE_ENTRIES = 1000;
const ANSWER_CACHE_BYTES = 32 * 1024 * 1024;
/** POST bodies longer than this many characters (a batch) are not kept: a repeat is unlikely and the key would be large. */
export const POST_BODY_MAX = 4096;
export const HOUR_MS = 3_600_000;

export interface CachedAnswer {
  route: Route;
  hour: number;
  body: Buffer;
  /** A GET answer's ETag (POST answers have none). */
  etag?: string;
  gz?: Buffer;
}

/** The cache key of a POST: its target and body (a GET's key is its target, which starts with `/`). */
export function postKey(target: string, body: string): string {
  return `POST ${target}\n${body}`;
}

export class AnswerCache {
  private readonly answers = new Map<string, CachedAnswer>();
  private bytes = 0;

  get size(): number {
    return this.answers.size;
  }

  /** The answer cached under this key (a GET's target, or postKey) in the UTC hour of `t`. */
  lookup(key: string, t: number): CachedAnswer | undefined {
    const hit = this.answers.get(key);
    return hit && hit.hour === Math.floor(t / HOUR_MS) ? hit : undefined;
  }

  remember(key: string, route: Route, body: string, etag: string | undefined, t: number): void {
    const entry: CachedAnswer = { route, hour: Math.floor(t / HOUR_MS), body: Buffer.from(body, 'utf8'), ...(etag === undefined ? {} : { etag }) };
    const old = this.answers.get(key);
    if (old) {
      this.answers.delete(key);
      this.bytes -= old.body.length + key.length;
    }
    this.answers.set(key, entry);
    this.bytes += entry.body.length + key.length;
    // Oldest first (insertion order) until both bounds hold.
    for (const [k, v] of this.answers) {
      if (this.answers.size <= ANSWER_CACHE_ENTRIES && this.bytes <= ANSWER_CACHE_BYTES) break;
      this.answers.delete(k);
      this.bytes -= v.body.length + k.length;
    }
  }
}
