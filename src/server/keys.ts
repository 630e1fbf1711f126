/**
 * The keys file of `publicdata serve --keys FILE` and the constant-time key check.
 *
 * Format (one entry per line; blank lines and lines starting with `#` are ignored):
 *   gd_live_9f0e…                      a key alone: the spec's default plan (10 requests a minute,
 *                                       100 free credits a month, no purchased credits)
 *   {"key":"gd_live_…","kind":"live","per_minute":60,"monthly_credits":100,"credits":5000,"name":"etl"}
 *                                       a JSON object: any field but `key` may be left out
 * `kind` defaults from the prefix (gd_test_ → test, else live). Test keys are capped at 10 requests a
 * minute, as the published service's are. `monthly_credits` is the free allowance renewed on the 1st
 * of each month (UTC); `credits` are purchased credits, which never expire (spec doc 1 §8).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { keyProblem, maskKey } from '../config.js';

export type KeyKindName = 'test' | 'live';

export interface KeyPlan {
  /** sha256 of the key (hex): the only form kept in memory after parsing, in state and in logs' ids. */
  id: string;
  /** Masked form for logs (gd_live_…a1b2). */
  masked: string;
  kind: KeyKindName;
  perMinute: number;
  monthlyCredits: number;
  purchasedCredits: number;
  name?: string;
}

export const DEFAULT_PER_MINUTE = 10;
export const DEFAULT_MONTHLY_CREDITS = 100;
export const TEST_KEY_MAX_PER_MINUTE = 10;

export class KeysFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeysFileError';
  }
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

const FIELDS = new Set(['key', 'kind', 'per_minute', 'monthly_credits', 'credits', 'name']);

function count(v: unknown, field: string, where: string, min: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > 1e12)
    throw new KeysFileError(`${where}: '${field}' must be a whole number of at least ${min}.`);
  return v;
}

/** Parse the keys file text. Errors name the line, never the key. */
export function parseKeysFile(text: string, file = 'keys file'): KeyPlan[] {
  const plans: KeyPlan[] = [];
  const seen = new Set<string>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    const where = `${file} line ${i + 1}`;
    let key: string;
    let fields: Record<string, unknown> = {};
    if (line.startsWith('{')) {
      try {
        fields = JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new KeysFileError(`${where}: not valid JSON (a key alone, or one JSON object per line).`);
      }
      if (typeof fields !== 'object' || fields === null || Array.isArray(fields))
        throw new KeysFileError(`${where}: expected a JSON object.`);
      const unknown = Object.keys(fields).filter((f) => !FIELDS.has(f));
      if (unknown.length) throw new KeysFileError(`${where}: unknown field(s) ${unknown.join(', ')}; allowed: ${[...FIELDS].join(', ')}.`);
      if (typeof fields.key !== 'string') throw new KeysFileError(`${where}: 'key' (a string) is required.`);
      key = fields.key;
    } else {
      key = line;
    }
    const problem = keyProblem(key);
    if (problem) throw new KeysFileError(`${where}: ${problem}.`);
    if (key.length < 16) throw new KeysFileError(`${where}: the key is too short (at least 16 characters, so it cannot be guessed).`);
    const kindField = fields.kind;
    if (kindField !== undefined && kindField !== 'test' && kindField !== 'live')
      throw new KeysFileError(`${where}: 'kind' must be "test" or "live".`);
    const kind: KeyKindName = (kindField as KeyKindName | undefined) ?? (key.startsWith('gd_test_') ? 'test' : 'live');
    let perMinute = fields.per_minute === undefined ? DEFAULT_PER_MINUTE : count(fields.per_minute, 'per_minute', where, 1);
    if (kind === 'test') perMinute = Math.min(perMinute, TEST_KEY_MAX_PER_MINUTE);
    const id = digest(key).toString('hex');
    if (seen.has(id)) throw new KeysFileError(`${where}: this key is listed twice.`);
    seen.add(id);
    const plan: KeyPlan = {
      id,
      masked: maskKey(key),
      kind,
      perMinute,
      monthlyCredits: fields.monthly_credits === undefined ? DEFAULT_MONTHLY_CREDITS : count(fields.monthly_credits, 'monthly_credits', where, 0),
      purchasedCredits: fields.credits === undefined ? 0 : count(fields.credits, 'credits', where, 0),
    };
    if (fields.name !== undefined) {
      if (typeof fields.name !== 'string' || fields.name.length > 64) throw new KeysFileError(`${where}: 'name' must be a short string.`);
      plan.name = fields.name;
    }
    plans.push(plan);
  }
  if (plans.length === 0) throw new KeysFileError(`${file}: no keys (one key per line, or one JSON object per line).`);
  return plans;
}

/**
 * Whether a text is one of the keys, by its digest in a set: one hash, no loop over the keys. For masking
 * a log line, where a key may be tried hundreds of times a request (its segments and their decodings) and
 * no secret rides on the time taken; authentication uses keyMatcher.
 */
export function keyIndex(plans: readonly KeyPlan[]): (text: string) => boolean {
  const ids = new Set(plans.map((p) => p.id));
  return (text) => ids.has(digest(text).toString('hex'));
}

/**
 * Find the plan of a presented key. Every stored digest is compared with timingSafeEqual, with no early
 * exit, so the time taken says nothing about how close a guess was or which key matched.
 */
export function keyMatcher(plans: readonly KeyPlan[]): (presented: string) => KeyPlan | undefined {
  const digests = plans.map((p) => Buffer.from(p.id, 'hex'));
  return (presented) => {
    const d = digest(presented);
    let found: KeyPlan | undefined;
    for (let i = 0; i < digests.length; i++) {
      if (timingSafeEqual(d, digests[i]!) && !found) found = plans[i];
    }
    return found;
  };
}

/**
 * Read a keys file, refusing one that group or others may write (anyone who can write it can add a key of
 * their own) and warning about one that others may read (docs/serve.md). Windows has no such mode bits.
 */
export function readKeysFile(file: string, warn: (line: string) => void): KeyPlan[] {
  let text: string;
  let mode: number;
  try {
    mode = statSync(file).mode & 0o777;
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new KeysFileError(`Cannot read the keys file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`);
  }
  if (process.platform !== 'win32') {
    const octal = mode.toString(8).padStart(3, '0');
    if (mode & 0o022)
      throw new KeysFileError(`The keys file ${file} is writable by ${mode & 0o002 ? 'others' : 'its group'} (mode ${octal}): anyone who can write it can add a key. Run: chmod 600 ${file}`);
    if (mode & 0o004) warn(`warning: the keys file ${file} is readable by others (mode ${octal}); run: chmod 600 ${file}`);
  }
  return parseKeysFile(text, file);
}
