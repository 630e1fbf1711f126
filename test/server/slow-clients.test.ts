/**
 * serve cuts a slow client at the documented limits (issue 37, "serve's edges"): node checks its header and
 * request deadlines on a timer, every 30 s by default, so a 10 s limit cut at 17.7-20+ s. The server checks
 * every tenth of the smaller limit (at most every second); here the limits are 0.3 s and 0.6 s, and the cut
 * must come well before node's default timer would have fired (30 s).
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/serve.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
});
afterAll(async () => {
  await s.close();
});

/** Send `head` then nothing more; resolve with what came back and when the socket closed (ms after sending). */
function trickle(head: string): Promise<{ answer: string; closedAfterMs: number }> {
  const { port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const sock = connect(Number(port), '127.0.0.1');
    let answer = '';
    let sent = 0;
    sock.on('connect', () => {
      sock.write(head);
      sent = performance.now();
    });
    sock.on('data', (d) => (answer += d.toString('utf8')));
    sock.on('close', () => resolve({ answer, closedAfterMs: performance.now() - sent }));
    sock.on('error', reject);
  });
}

describe('slow clients', () => {
  it('headers not finished: 408 timeout, cut after the headers limit and long before node default 30 s timer', async () => {
    const r = await trickle('GET /v1/example/summary HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(r.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(r.answer).toContain('"code":"timeout"');
    expect(r.closedAfterMs).toBeGreaterThanOrEqual(250);
    expect(r.closedAfterMs).toBeLessThan(10_000);
  });

  it('a body not finished: 408, cut after the request limit', async () => {
    const r = await trickle('POST /v1/example/calculate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"amou');
    expect(r.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(r.closedAfterMs).toBeGreaterThanOrEqual(550);
    expect(r.closedAfterMs).toBeLessThan(10_000);
  });
});
