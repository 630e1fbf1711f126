/**
 * API key resolution and storage, and the helpers that keep a key out of every line we print.
 *
 * Precedence: env `PUBLICDATA_API_KEY`, else `<config dir>/config.json` written by `publicdata auth login`.
 * The config dir is `PUBLICDATA_CONFIG_DIR` when set, else env-paths('publicdata', {suffix: ''}).config
 * (Linux: `$XDG_CONFIG_HOME/publicdata` or `~/.config/publicdata`). The file is written atomically
 * (temp file + rename) with mode 0600 inside a directory created with mode 0700.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDir, type Env } from './mirror/paths.js';

export { configDir };
export type { Env };
export type KeyKind = 'test' | 'live' | 'unknown';
export type KeySource = 'env' | 'config';

export const CONFIG_FILE = 'config.json';
const TEST_PREFIX = 'gd_test_';
const LIVE_PREFIX = 'gd_live_';
/** The prefix (8) and 8 more: keys seen are `gd_live_`/`gd_test_` and 16+ characters (test/support/keys.ts). */
export const MIN_KEY_LENGTH = 16;

export class KeyFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyFormatError';
  }
}

export function configPath(env: Env): string {
  return join(configDir(env), CONFIG_FILE);
}

/**
 * Format check (the spec does not show the key format): non-empty, no whitespace or control characters,
 * at least MIN_KEY_LENGTH characters (a paste cut short, e.g. 5 characters, is refused by `auth login`
 * and by the live client before any request), at most 512. Returns a problem or undefined.
 */
export function keyProblem(key: string): string | undefined {
  if (key.length === 0) return 'the key is empty';
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(key)) return 'the key contains whitespace or control characters';
  if (key.length < MIN_KEY_LENGTH) return `the key is too short (an API key has at least ${MIN_KEY_LENGTH} characters)`;
  if (key.length > 512) return 'the key is implausibly long';
  return undefined;
}

export function keyKind(key: string): KeyKind {
  if (key.startsWith(TEST_PREFIX)) return 'test';
  if (key.startsWith(LIVE_PREFIX)) return 'live';
  return 'unknown';
}

/**
 * Masked form safe to print: `gd_live_…a1b2`. Short secrets show only the prefix, so the mask never
 * reveals more than 4 characters of the secret part, and never more than a third of it.
 */
export function maskKey(key: string): string {
  const kind = keyKind(key);
  const prefix = kind === 'test' ? TEST_PREFIX : kind === 'live' ? LIVE_PREFIX : '';
  const secret = key.slice(prefix.length);
  const tail = secret.length >= 12 ? secret.slice(-4) : '';
  return `${prefix}…${tail}`;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Compiled keyPattern per key (serve's access log redacts every line). */
const PATTERNS = new Map<string, RegExp>();

/**
 * A pattern matching `key` in any of the encodings a line may carry it in: each character as itself, as a
 * %-escape of its UTF-8 bytes (either case of hex, escaped again any number of times: `%2567`), or as a
 * JSON `\u` escape, in any mix; plus its base64 and base64url forms.
 */
function keyPattern(key: string): RegExp {
  const cached = PATTERNS.get(key);
  if (cached) return cached;
  const chars = [...key].map((ch) => {
    const bytes = [...Buffer.from(ch, 'utf8')];
    const pct = bytes.map((b) => `%(?:25)*${b.toString(16).padStart(2, '0').replace(/[a-f]/g, (h) => `[${h}${h.toUpperCase()}]`)}`).join('');
    const u = ch.length === 1 ? `|\\\\u${ch.charCodeAt(0).toString(16).padStart(4, '0').replace(/[a-f]/g, (h) => `[${h}${h.toUpperCase()}]`)}` : '';
    return `(?:${escapeRe(ch)}|${pct}${u})`;
  });
  const b64 = Buffer.from(key, 'utf8').toString('base64').replace(/=+$/, '');
  const b64url = Buffer.from(key, 'utf8').toString('base64url');
  const re = new RegExp([chars.join(''), escapeRe(b64), ...(b64url !== b64 ? [escapeRe(b64url)] : [])].join('|'), 'g');
  if (PATTERNS.size > 64) PATTERNS.clear();
  PATTERNS.set(key, re);
  return re;
}

/**
 * The keys this process holds (the configured key, once resolved): `redact` masks each of them wherever and
 * however it appears, whatever its shape, without every caller having to pass it.
 */
const HELD_KEYS = new Set<string>();

/** Remember a key so that every `redact` masks it (called when a key is resolved or presented). */
export function holdKey(key: string | undefined): void {
  if (key && !keyProblem(key)) HELD_KEYS.add(key);
}

/** Forget the held keys (tests that switch keys in one process). */
export function forgetHeldKeys(): void {
  HELD_KEYS.clear();
}

/**
 * Remove a key from text: the key given and every held key (holdKey), in any encoding (keyPattern), becomes
 * its mask; any other `gd_live_`/`gd_test_` token and any `Bearer <token>` is masked too (defence in depth).
 */
export function redact(text: string, key?: string): string {
  let out = text;
  const keys = new Set(HELD_KEYS);
  if (key) keys.add(key);
  // longest first: a key that contains another is masked whole
  for (const k of [...keys].sort((a, b) => b.length - a.length)) out = out.replace(keyPattern(k), maskKey(k));
  // The whole token, whatever characters a key holds (base64's + / =, a URL's . ~ and %-escapes): a
  // narrower class masked `gd_live_abc.def` only up to the dot and printed the rest.
  // Anywhere, not only at a word boundary: `xgd_live_…` or `path_gd_live_…` hold a key just the same.
  out = out.replace(/gd_(live|test)_[A-Za-z0-9_\-.~+/=%]+/g, (m) => maskKey(m));
  out = out.replace(/\b(Bearer)\s+(?!gd_(?:live|test)_…)([^\s"',]+)/gi, (_m, b: string) => `${b} <redacted>`);
  return out;
}

/** Query parameters whose value is a credential whatever it looks like (compared case-insensitively). */
const SECRET_PARAMS = /^(key|api[_-]?key|apikey|access[_-]?token|token|auth|authorization|password|secret)$/i;

/**
 * A URL (or URL-like text that may not parse) safe to print: userinfo (`user:password@`) becomes
 * `<redacted>@`; the value of every credential-named query parameter (`key`, `api_key`, `token` …)
 * becomes `<redacted>`, or with `allQuery` the whole query and fragment do; then `redact`.
 */
export function redactUrl(text: string, opts: { allQuery?: boolean } = {}): string {
  let out = text.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#]*@/, '$1<redacted>@');
  const q = out.indexOf('?');
  if (q >= 0) {
    const hash = out.indexOf('#', q);
    const query = out.slice(q + 1, hash < 0 ? undefined : hash);
    const rest = hash < 0 ? '' : out.slice(hash);
    if (opts.allQuery) out = `${out.slice(0, q)}?<redacted>${rest ? '#<redacted>' : ''}`;
    else {
      const pairs = query.split(/([&;])/).map((part) => {
        const eq = part.indexOf('=');
        const name = eq < 0 ? part : part.slice(0, eq);
        let decoded = name;
        try {
          decoded = decodeURIComponent(name.replace(/\+/g, ' '));
        } catch {
          /* keep it as sent */
        }
        return eq >= 0 && SECRET_PARAMS.test(decoded.trim()) ? `${name}=<redacted>` : part;
      });
      out = `${out.slice(0, q)}?${pairs.join('')}${rest}`;
    }
  }
  return redact(out);
}

/** `redactUrl` applied to every `scheme://…` URL in a line of text. */
export function redactUrlsIn(text: string): string {
  return redact(text.replace(/\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s'"<>]+/g, (u) => redactUrl(u)));
}

interface ConfigFile {
  api_key?: string;
  [k: string]: unknown;
}

/** Read config.json; a missing file is an empty config, an unreadable or invalid one throws. */
export function readConfig(env: Env): ConfigFile {
  let text: string;
  try {
    text = readFileSync(configPath(env), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw e;
  }
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as ConfigFile) : {};
  } catch {
    throw new Error(`${configPath(env)} is not valid JSON; fix it or run 'publicdata auth logout'.`);
  }
}

/**
 * A config folder that group or others may enter or write (a 0777 folder made by hand, an old umask) is
 * narrowed to 0700 when it is ours: whoever can write the folder can replace config.json, and so the key.
 */
export function tightenConfigDir(dir: string): void {
  try {
    const st = statSync(dir);
    if (st.isDirectory() && st.mode & 0o077 && (typeof process.getuid !== 'function' || st.uid === process.getuid())) chmodSync(dir, 0o700);
  } catch {
    /* absent, or not ours to change: nothing to tighten */
  }
}

/** Atomic write with mode 0600 (directory 0700 when we create it, narrowed to 0700 when found wider). */
export function writeConfig(cfg: ConfigFile, env: Env): string {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  tightenConfigDir(dir);
  const file = join(dir, CONFIG_FILE);
  const tmp = join(dir, `.${CONFIG_FILE}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  try {
    writeFileSync(tmp, `${JSON.stringify(cfg, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(tmp, 0o600); // umask cannot loosen it, but be explicit
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  return file;
}

export interface ResolvedKey {
  key: string;
  source: KeySource;
  /** The config file, when source is 'config'. */
  path?: string;
}

/** Where the key comes from, or undefined when there is none. Never throws for a missing file. */
export function resolveApiKeySource(env: Env): ResolvedKey | undefined {
  const fromEnv = env.PUBLICDATA_API_KEY?.trim();
  if (fromEnv) {
    holdKey(fromEnv);
    return { key: fromEnv, source: 'env' };
  }
  let cfg: ConfigFile;
  try {
    cfg = readConfig(env);
  } catch {
    return undefined;
  }
  if (cfg.api_key !== undefined) tightenConfigDir(configDir(env));
  const k = typeof cfg.api_key === 'string' ? cfg.api_key.trim() : '';
  holdKey(k);
  return k ? { key: k, source: 'config', path: configPath(env) } : undefined;
}

/** The API key: env `PUBLICDATA_API_KEY`, else the saved key, else undefined. */
export function resolveApiKey(env: Env): string | undefined {
  return resolveApiKeySource(env)?.key;
}

/** Save a key for `publicdata auth login`. Throws KeyFormatError (message without the key) when malformed. */
export function saveApiKey(key: string, env: Env): string {
  const k = key.trim();
  const problem = keyProblem(k);
  if (problem) throw new KeyFormatError(`Not saved: ${problem}.`);
  let cfg: ConfigFile = {};
  try {
    cfg = readConfig(env);
  } catch {
    cfg = {};
  }
  cfg.api_key = k;
  return writeConfig(cfg, env);
}

/** Remove the saved key (`publicdata auth logout`). Returns true when a key was removed. */
export function removeApiKey(env: Env): boolean {
  let cfg: ConfigFile;
  try {
    cfg = readConfig(env);
  } catch {
    rmSync(configPath(env), { force: true });
    return true;
  }
  if (cfg.api_key === undefined) return false;
  delete cfg.api_key;
  if (Object.keys(cfg).length === 0) rmSync(configPath(env), { force: true });
  else writeConfig(cfg, env);
  return true;
}

/** Mode bits of the config file (for `auth status`), or undefined when absent. */
export function configFileMode(env: Env): number | undefined {
  try {
    return statSync(configPath(env)).mode & 0o777;
  } catch {
    return undefined;
  }
}
