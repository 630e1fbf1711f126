import { fakeKey } from '../support/keys.js';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  configDir,
  configFileMode,
  configPath,
  KeyFormatError,
  keyKind,
  keyProblem,
  maskKey,
  redact,
  removeApiKey,
  resolveApiKey,
  resolveApiKeySource,
  saveApiKey,
} from '../../src/config.js';

const LIVE = fakeKey('live', '7a6b5c4d3e2f1a0b9c8d7e6f5a4ba1b2');
const TEST = 'gd_test_0123456789abcdef0123456789abcdef';

let root: string;
let env: Record<string, string | undefined>;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'publicdata-config-'));
  env = { PUBLICDATA_CONFIG_DIR: join(root, 'cfg') };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('key storage', () => {
  test('saveApiKey writes config.json with mode 0600 in a 0700 directory, atomically', () => {
    const file = saveApiKey(LIVE, env);
    expect(file).toBe(join(root, 'cfg', 'config.json'));
    expect(configPath(env)).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, 'cfg')).mode & 0o777).toBe(0o700);
    expect(configFileMode(env)).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ api_key: LIVE });
    // No temp files left behind.
    expect(readdirSync(join(root, 'cfg'))).toEqual(['config.json']);
  });

  test('saving again replaces the key, keeps other settings, and tightens a loose mode', () => {
    mkdirSync(join(root, 'cfg'), { recursive: true });
    writeFileSync(join(root, 'cfg', 'config.json'), JSON.stringify({ api_key: TEST, format: 'json' }), { mode: 0o644 });
    saveApiKey(`  ${LIVE}\n`, env);
    expect(JSON.parse(readFileSync(configPath(env), 'utf8'))).toEqual({ api_key: LIVE, format: 'json' });
    expect(configFileMode(env)).toBe(0o600);
  });

  test('env PUBLICDATA_API_KEY wins over the file; the file is used otherwise; none gives undefined', () => {
    expect(resolveApiKey(env)).toBeUndefined();
    expect(resolveApiKeySource(env)).toBeUndefined();
    saveApiKey(LIVE, env);
    expect(resolveApiKey(env)).toBe(LIVE);
    expect(resolveApiKeySource(env)).toEqual({ key: LIVE, source: 'config', path: configPath(env) });
    const withEnv = { ...env, PUBLICDATA_API_KEY: ` ${TEST} ` };
    expect(resolveApiKey(withEnv)).toBe(TEST);
    expect(resolveApiKeySource(withEnv)).toEqual({ key: TEST, source: 'env' });
    expect(resolveApiKey({ ...env, PUBLICDATA_API_KEY: '   ' })).toBe(LIVE);
  });

  test('removeApiKey deletes the key (and the file when nothing else is in it)', () => {
    expect(removeApiKey(env)).toBe(false);
    saveApiKey(LIVE, env);
    expect(removeApiKey(env)).toBe(true);
    expect(resolveApiKey(env)).toBeUndefined();
    expect(configFileMode(env)).toBeUndefined();
  });

  test('a malformed key is refused without echoing it', () => {
    for (const bad of ['', '   ', 'gd_live_abc def', 'gd_live_abc\tdef']) {
      let err: unknown;
      try {
        saveApiKey(bad, env);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(KeyFormatError);
      expect((err as Error).message).not.toContain('abc');
    }
    expect(keyProblem('gd_live_x y')).toBe('the key contains whitespace or control characters');
    expect(keyProblem(LIVE)).toBeUndefined();
  });

  test('an invalid config file resolves to no key instead of crashing', () => {
    mkdirSync(join(root, 'cfg'), { recursive: true });
    writeFileSync(configPath(env), '{not json');
    expect(resolveApiKey(env)).toBeUndefined();
  });

  test('without PUBLICDATA_CONFIG_DIR the env-paths config dir is used', () => {
    expect(configDir({})).toMatch(/publicdata$/);
    expect(configDir({})).not.toMatch(/nodejs/);
  });
});

describe('masking and redaction', () => {
  test('maskKey shows the kind prefix and at most the last 4 characters', () => {
    expect(maskKey(LIVE)).toBe('gd_live_…a1b2');
    expect(maskKey(TEST)).toBe('gd_test_…cdef');
    expect(maskKey('gd_live_short')).toBe('gd_live_…');
    expect(maskKey('sk-0123456789abcdef')).toBe('…cdef');
    expect(maskKey('tiny')).toBe('…');
  });

  test('keyKind', () => {
    expect(keyKind(LIVE)).toBe('live');
    expect(keyKind(TEST)).toBe('test');
    expect(keyKind('abc')).toBe('unknown');
  });

  test('redact removes the key, its URL-encoded form, other gd_ keys and Bearer tokens', () => {
    const odd = 'k3y/with+special=chars0000';
    const text = `key=${LIVE} url=?k=${encodeURIComponent(odd)} raw=${odd} other=${TEST} Authorization: Bearer abc.def-123`;
    const out = redact(text, odd);
    expect(out).not.toContain(LIVE);
    expect(out).not.toContain(TEST);
    expect(out).not.toContain(odd);
    expect(out).not.toContain(encodeURIComponent(odd));
    expect(out).not.toContain('abc.def-123');
    expect(out).toContain('gd_live_…a1b2');
    expect(out).toContain('Bearer <redacted>');
    expect(redact(`Bearer ${LIVE}`, LIVE)).toBe('Bearer gd_live_…a1b2');
    expect(redact('nothing secret here')).toBe('nothing secret here');
  });
});
