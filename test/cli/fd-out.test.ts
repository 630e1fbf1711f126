/**
 * fdOut (src/io.ts): stdout to a pipe or file without Node's stream. Bytes in order, the callback called,
 * a partial write finished, EAGAIN handing the rest (and every later write) to the stream, EPIPE to onEpipe.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fdOut, isPipeOrFile } from '../../src/io.js';

const err = (code: string) => Object.assign(new Error(code), { code });

describe('fdOut', () => {
  it('writes text and bytes to a file descriptor in order, and calls the callback', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fdout-'));
    const f = join(dir, 'out');
    const fd = openSync(f, 'w');
    try {
      expect(isPipeOrFile(fd)).toBe(true);
      const out = fdOut(fd, () => { throw new Error('no stream expected'); }, () => {});
      expect(out.write('£1 ')).toBe(true);
      await new Promise<void>((r) => out.write(Buffer.from('two\n'), () => r()));
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(f, 'utf8')).toBe('£1 two\n');
    rmSync(dir, { recursive: true });
  });

  it('finishes a partial write, then on EAGAIN sends the rest and every later write to the stream', () => {
    const written: string[] = [];
    let calls = 0;
    const write = (_fd: number, b: Buffer) => {
      calls++;
      if (calls === 1) {
        written.push(b.subarray(0, 3).toString());
        return 3; // a partial write: "abc" of "abcdef"
      }
      if (calls === 2) {
        written.push(b.subarray(0, 1).toString());
        return 1; // "d"
      }
      throw err('EAGAIN');
    };
    const stream = new PassThrough();
    const got: string[] = [];
    stream.on('data', (d: Buffer) => got.push(d.toString()));
    const out = fdOut(1, () => stream, () => {}, write);
    out.write('abcdef');
    out.write('gh');
    expect(written).toEqual(['abc', 'd']);
    expect(got).toEqual(['ef', 'gh']);
    expect(calls).toBe(3); // the second write went to the stream without trying the descriptor
  });

  it('calls onEpipe once, on the next tick, when the reader has gone, and throws any other error', async () => {
    let gone = 0;
    let calls = 0;
    const out = fdOut(1, () => new PassThrough(), () => void gone++, () => { calls++; throw err('EPIPE'); });
    out.write('x');
    out.write('y');
    expect(gone).toBe(0);
    await new Promise<void>((r) => process.nextTick(r));
    expect(gone).toBe(1);
    expect(calls).toBe(1); // nothing written after it
    const bad = fdOut(1, () => new PassThrough(), () => {}, () => { throw err('EIO'); });
    expect(() => bad.write('x')).toThrow('EIO');
  });
});
