/**
 * serve's credit store under faults and signals (issue 21 item 9): a credits folder that cannot be made
 * is retried with back-off (no further charge needed) and reported; a flush that cannot write gives up
 * with an error instead of spinning; SIGHUP re-reads the keys file (a revoked key is refused at once)
 * and writes the credit state, while serve keeps answering.
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runServe } from '../../commands/serve.js';
import { createContext } from '../../src/create-context.js';
import { CreditStateError, CreditStore } from '../../src/server/credits.js';
import { parseKeysFile } from '../../src/server/keys.js';
import { isolatedEnv } from '../support/cli.js';
import { FIXED_NOW } from '../support/handler-context.js';
import { fakeKey } from '../support/keys.js';
import { keyLine, startTestServer } from '../support/serve.js';

const KEY_A = fakeKey('live', 'aaaa1111bbbb2222cccc3333dddd4444');
const KEY_B = fakeKey('live', 'eeee5555ffff6666aaaa7777bbbb8888');
const digest = (k: string) => createHash('sha256').update(k, 'utf8').digest('hex');
const NOW = Date.UTC(2026, 10, 21, 12);

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!cond()) throw new Error(`timed out waiting for ${what}`);
}

/**
 * A state file whose folder cannot be made once `block()` has put a regular file where the folder goes
 * (mkdir fails with ENOTDIR/EEXIST); blocked after the store has started, as a folder removed under a
 * running serve would be.
 */
function blockedPath(): { file: string; block: () => void; unblock: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'pd-credits-'));
  const blocker = join(dir, 'serve');
  return { file: join(blocker, 'credits.json'), block: () => writeFileSync(blocker, 'not a folder'), unblock: () => rmSync(blocker) };
}

describe('CreditStore write failures', () => {
  it('retries a failed write by itself, with back-off, until the folder can be made', async () => {
    const { file, block, unblock } = blockedPath();
    const store = new CreditStore(file, { retryBaseMs: 5, retryMaxMs: 20 });
    block();
    const errors: Array<{ failures: number; retryInMs: number | undefined }> = [];
    let recovered = 0;
    store.onWriteError = (_e, r) => errors.push(r);
    store.onWriteRecovered = (n) => (recovered = n);
    const [plan] = parseKeysFile(KEY_A);
    expect(store.reserve(plan!, 1, NOW)).toBeDefined();
    await until(() => errors.length >= 3, 'three failed attempts');
    // back-off doubles from the base up to the cap
    expect(errors.slice(0, 3).map((e) => e.retryInMs)).toEqual([5, 10, 20]);
    expect(existsSync(file)).toBe(false);
    unblock();
    // no further charge was made; the recovery is reported just after the rename that makes the file,
    // so wait for the report, not for the file (a poll between the two saw 0: a flaky test)
    await until(() => recovered > 0, 'the retried write reported');
    const state = JSON.parse(readFileSync(file, 'utf8'));
    expect(state.keys[digest(KEY_A)]).toEqual({ month: '2026-11', monthly_used: 1, purchased_used: 0 });
    expect(recovered).toBeGreaterThanOrEqual(3);
  });

  it('flush gives up with an error after its attempts instead of spinning', async () => {
    const { file, block } = blockedPath();
    const store = new CreditStore(file, { retryBaseMs: 1, flushAttempts: 3 });
    block();
    let failures = 0;
    store.onWriteError = () => failures++;
    store.reserve(parseKeysFile(KEY_A)[0]!, 1, NOW);
    await expect(store.flush()).rejects.toThrow(CreditStateError);
    // The second flush: the reserve's own write, 3 attempts of the first flush, 3 of its own; the message counts them all.
    await expect(store.flush()).rejects.toThrow(/: 7 attempts failed over \d+\.\d s, the last 3 at shutdown; the charges since its last write are lost/);
    expect(failures).toBe(7);
  });

  it('the log says when a flush tries again, and that its last attempt was the last (no 30 s back-off it never waits for)', async () => {
    const { file, block } = blockedPath();
    const store = new CreditStore(file, { retryBaseMs: 1, retryMaxMs: 30_000, flushAttempts: 3 });
    block();
    const said: Array<number | undefined> = [];
    store.onWriteError = (_e, r) => said.push(r.retryInMs);
    store.reserve(parseKeysFile(KEY_A)[0]!, 1, NOW);
    await expect(store.flush()).rejects.toThrow(CreditStateError);
    // the reserve's own write: the back-off timer (1 ms); flush's attempts 1, 2, 3: next in 1 ms, 2 ms, then none
    expect(said).toEqual([1, 1, 2, undefined]);
  });

  it("serve reports the failed writes on its error log and its close() rejects rather than hanging", async () => {
    const { file, block } = blockedPath();
    const s = await startTestServer({ keysText: keyLine(KEY_A), stateFile: file, creditRetry: { retryBaseMs: 5, flushAttempts: 2 } });
    block();
    const r = await fetch(`${s.url}/example/summary`, { headers: { authorization: `Bearer ${KEY_A}` } });
    expect(r.status).toBe(200);
    await until(() => s.errorLog.length > 0, 'an error line');
    expect(s.errorLog[0]).toMatch(new RegExp(`^credit state: could not write ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(.*(ENOTDIR|EEXIST).*\\); retry 1 in 0\\.0 s$`));
    await expect(s.close(100)).rejects.toThrow(CreditStateError);
  });
});

describe('SIGHUP', () => {
  it('reloads the keys file (a revoked key stops working at once) and writes the credit state, still serving', async () => {
    const env = isolatedEnv();
    const dir = mkdtempSync(join(tmpdir(), 'pd-hup-'));
    const keysFile = join(dir, 'keys.txt');
    const stateFile = join(dir, 'credits.json');
    writeFileSync(keysFile, `${keyLine(KEY_A)}\n${keyLine(KEY_B)}\n`, { mode: 0o600 });
    let stderr = '';
    const ctx = createContext({
      io: { stdout: { write: () => true }, stderr: { write: (t: string) => ((stderr += t), true) }, stdin: Readable.from([]), stdoutIsTTY: false, stderrIsTTY: false, columns: 100 },
      env,
      now: () => FIXED_NOW,
    });
    const hup = new EventEmitter();
    let stop!: (s: string) => void;
    const stopped = new Promise<string>((r) => (stop = r));
    const done = runServe(ctx, { host: '127.0.0.1', port: 0, keys: keysFile, state: stateFile, quiet: true }, stopped, hup);
    await until(() => /the v1 API at (\S+)/.test(stderr), 'the server to start');
    const url = /the v1 API at (\S+)/.exec(stderr)![1]!;
    const get = (key: string) => fetch(`${url}/example/summary`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
    expect([await get(KEY_A), await get(KEY_B)]).toEqual([200, 200]);

    // Revoke A; an unreadable file first leaves the keys as they were.
    rmSync(keysFile);
    hup.emit('reload');
    await until(() => stderr.includes('the keys file was not reloaded'), 'the failed reload');
    expect(await get(KEY_A)).toBe(200);
    // A file others may write is refused on reload too (anyone could have added a key to it).
    writeFileSync(keysFile, `${keyLine(KEY_B)}\n`);
    chmodSync(keysFile, 0o666);
    hup.emit('reload');
    await until(() => stderr.includes('is writable by others'), 'the refused reload');
    expect(await get(KEY_A)).toBe(200);
    chmodSync(keysFile, 0o600);
    hup.emit('reload');
    await until(() => stderr.includes('SIGHUP: reloaded 1 key(s)'), 'the reload');
    expect(stderr).toContain(`SIGHUP: reloaded 1 key(s) from ${keysFile} (2 before); still serving`);
    expect([await get(KEY_A), await get(KEY_B)]).toEqual([401, 200]);
    // Every charge so far is on disk: A 3 GETs, B 1 before the reload; B 1 after it, written by the flush below at the latest.
    const state = JSON.parse(readFileSync(stateFile, 'utf8'));
    expect(state.keys[digest(KEY_A)].monthly_used).toBe(3);

    stop('SIGTERM');
    expect(await done).toBe(0);
    expect(stderr).toMatch(/stopped\n$/);
    const final = JSON.parse(readFileSync(stateFile, 'utf8'));
    expect([final.keys[digest(KEY_A)].monthly_used, final.keys[digest(KEY_B)].monthly_used]).toEqual([3, 2]);
  });
});
