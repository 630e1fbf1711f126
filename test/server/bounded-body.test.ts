/**
 * Bounded work per request (issue 21 item 11): a JSON body nested deeper than MAX_BODY_DEPTH is refused
 * with 400 bad_request as soon as the bytes that pass the limit arrive (before the rest is received and
 * before JSON.parse runs); a client that disconnects mid-upload is not an internal error (nothing on the
 * error log, --quiet or not) and the access log records 499, not 200.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DepthScanner, MAX_BODY_DEPTH } from '../../src/server/http.js';
import { startTestServer, type TestServer } from '../support/serve.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const CALC = '/v1/example/calculate'; // the example domain's POST calculator (amount, colour, label)

/** Open a raw connection and send `head` (request line and headers) plus `body`. */
async function rawRequest(head: string, body: string): Promise<{ sock: Socket; response: Promise<string> }> {
  const sock = connect(s.port, '127.0.0.1');
  await new Promise<void>((r) => sock.once('connect', () => r()));
  let text = '';
  const response = new Promise<string>((resolve) => {
    sock.on('data', (b) => {
      text += b.toString('utf8');
      if (/\r\n\r\n/.test(text) && /"error"/.test(text)) resolve(text);
    });
    sock.on('close', () => resolve(text));
  });
  sock.write(head + body);
  return { sock, response };
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
}

describe('JSON nesting depth', () => {
  it('a body nested past the limit is refused before the rest of it arrives', async () => {
    const declared = 4 * 1024 * 1024;
    const prefix = '['.repeat(MAX_BODY_DEPTH + 1);
    // Only the first bytes are sent of a body declared as 4 MB: the answer comes anyway.
    const { sock, response } = await rawRequest(`POST ${CALC} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`, prefix);
    const text = await response;
    sock.destroy();
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('bad_request');
    expect(body.error.message).toContain(`deeper than ${MAX_BODY_DEPTH} levels`);
  });

  it('the limit itself is allowed (then the body is validated as usual), and brackets inside strings do not count', async () => {
    const atLimit = `${'['.repeat(MAX_BODY_DEPTH)}${']'.repeat(MAX_BODY_DEPTH)}`;
    const r = await fetch(`${s.url}/example/calculate`, { method: 'POST', body: atLimit });
    const e = (await r.json()) as { error: { message: string } };
    expect(r.status).toBe(400);
    expect(e.error.message).not.toContain('deeper than');
    // a string value full of brackets is read as a string: the body is parsed and validated (the value then
    // fails its own pattern), not refused as too deep
    const ok = await fetch(`${s.url}/example/calculate`, { method: 'POST', body: JSON.stringify({ amount: 45000, label: `${'[{'.repeat(200)}\\"[` }) });
    const okBody = (await ok.json()) as { error: { code: string; message: string } };
    expect([ok.status, okBody.error.code]).toEqual([400, 'bad_request']);
    expect(okBody.error.message).toContain('label');
    expect(okBody.error.message).not.toContain('deeper than');
  });

  it('the scanner agrees with the nesting of values built in the test', () => {
    const cases: Array<[unknown, number]> = [[1, 0], [[], 1], [{ a: [1, { b: 2 }] }, 3], [['"[[[', '\\'], 1], [{ 'k]}': { '{': [[[]]] } }, 5]];
    for (const [v, depth] of cases) {
      const sc = new DepthScanner();
      // fed one byte at a time: escapes and quotes split across chunks still count right
      for (const b of Buffer.from(JSON.stringify(v))) sc.push(Buffer.from([b]), 100);
      expect([sc.max, sc.depth]).toEqual([depth, 0]);
    }
  });
});

describe('a client that disconnects mid-upload', () => {
  it('is not logged as an internal error, and the access log says 499', async () => {
    const errorsBefore = s.errorLog.length;
    const before = s.accessLog.length;
    const { sock } = await rawRequest(`POST ${CALC} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`, '{"amount": 45');
    await new Promise((r) => setTimeout(r, 20));
    sock.destroy();
    await until(() => s.accessLog.length > before);
    const line = s.accessLog.slice(before).join('\n');
    expect(line).toMatch(new RegExp(`POST ${CALC} 499 `));
    expect(s.errorLog.slice(errorsBefore)).toEqual([]);
  });
});
