/**
 * The keys file's mode (issue 37, "Keys"): one that group or others may write is refused at start and on
 * SIGHUP (the keys loaded before stay); one others may read is served with a warning.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeysFileError, readKeysFile } from '../../src/server/keys.js';
import { runCli } from '../support/cli.js';
import { fakeKey } from '../support/keys.js';

const KEY = fakeKey('live', 'modecheck0123456789A');

function keysFile(mode: number): string {
  const f = join(mkdtempSync(join(tmpdir(), 'pd-keysmode-')), 'keys.txt');
  writeFileSync(f, `${KEY}\n`);
  chmodSync(f, mode);
  return f;
}

describe.skipIf(process.platform === 'win32')('keys file mode', () => {
  it('0600 is read with no warning', () => {
    const warnings: string[] = [];
    expect(readKeysFile(keysFile(0o600), (l) => warnings.push(l))).toHaveLength(1);
    expect(warnings).toEqual([]);
  });

  it('0644 is read with a warning naming the mode and the fix', () => {
    const warnings: string[] = [];
    const f = keysFile(0o644);
    expect(readKeysFile(f, (l) => warnings.push(l))).toHaveLength(1);
    expect(warnings).toEqual([`warning: the keys file ${f} is readable by others (mode 644); run: chmod 600 ${f}`]);
  });

  it('group- or world-writable is refused', () => {
    for (const [mode, who] of [[0o620, 'its group'], [0o602, 'others'], [0o666, 'others']] as const) {
      const f = keysFile(mode);
      expect(() => readKeysFile(f, () => undefined)).toThrow(KeysFileError);
      expect(() => readKeysFile(f, () => undefined)).toThrow(`is writable by ${who} (mode ${mode.toString(8)})`);
    }
  });

  it('serve refuses a world-writable keys file before listening (exit 2), naming no key', async () => {
    const f = keysFile(0o666);
    const r = await runCli(['serve', '--port', '0', '--keys', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`chmod 600 ${f}`);
    expect(r.stderr).not.toContain(KEY);
  });
});
