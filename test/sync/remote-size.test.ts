/** remoteSize: a file's size from a one-byte ranged request, to state before a large download (crime's archive). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteSize } from '../../sync/download.js';
import { startUpstreamServer, type UpstreamServer } from '../support/upstream-server.js';

let up: UpstreamServer;
const body = Buffer.alloc(123_457, 7);

beforeAll(async () => {
  up = await startUpstreamServer();
  up.set('/ranged.zip', body);
  up.set('/whole.zip', body, { fault: { noRange: true } });
  up.set('/unsized.zip', body, { fault: { noRange: true, noLength: true, closeAfterBody: true } });
});
afterAll(() => up.close());

describe('remoteSize', () => {
  it('reads the total of Content-Range, or Content-Length when the range is ignored; undefined when neither is sent or the file is missing', async () => {
    expect(await remoteSize(`${up.url}/ranged.zip`)).toBe(body.length);
    expect(up.requests.at(-1)).toMatchObject({ path: '/ranged.zip', range: 'bytes=0-0', status: 206 });
    expect(await remoteSize(`${up.url}/whole.zip`)).toBe(body.length);
    expect(await remoteSize(`${up.url}/unsized.zip`)).toBeUndefined();
    expect(await remoteSize(`${up.url}/missing.zip`)).toBeUndefined();
    expect(await remoteSize('http://127.0.0.1:9/closed.zip')).toBeUndefined();
  });
});
