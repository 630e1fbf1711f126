/**
 * A server that answers 200 with X-Credits-Cost and then closes the connection inside the body: the
 * credits its headers charged count toward --max-credits (docs/live-client.md: "Credits spent are the
 * X-Credits-Cost values received"), and the error says the server answered and charged rather than
 * "Could not reach". Before, such a request counted nothing, so a --max-credits 15 batch sent every line.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeKey } from '../support/keys.js';
import { isolatedEnv, runCli } from '../support/cli.js';

const KEY = fakeKey('live', 'c0ffee00c0ffee00c0ff5151');
let server: Server;
let url: string;
let posts = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST') posts++;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000', 'x-credits-cost': '10', 'x-credits-remaining': '990' });
      res.write('{"data":{"amount":');
      setImmediate(() => req.socket.destroy());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

describe('a body cut off after the headers charged', () => {
  it('--max-credits counts the charge: the second line is refused unsent and the batch stops (exit 6: the first failed line)', async () => {
    const stdin = ['30000', '40000', '50000'].map((g) => JSON.stringify({ amount: Number(g) })).join('\n');
    const env = isolatedEnv({ PUBLICDATA_BASE_URL: url, PUBLICDATA_API_KEY: KEY });
    const r = await runCli(['example', 'calculate', '--batch', '--source', 'live', '--format', 'ndjson', '--max-credits', '15'], { env, stdin: `${stdin}\n` });
    expect(posts).toBe(1);
    const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l).error);
    expect(out.map((e) => e.code)).toEqual(['network_error', 'credit_budget_exceeded']);
    expect(out[0].message).toMatch(/answered HTTP 200 \(X-Credits-Cost 10: charged\) but the connection closed before the whole body arrived/);
    expect(r.code).toBe(6); // the first failed line's exit: a network failure
  });
});
