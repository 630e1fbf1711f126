/**
 * `__proto__`, `constructor` and `prototype` are refused as names wherever a caller names keys (issue 21
 * item 13): `publicdata api -F __proto__.region=scotland` once set Object.prototype.region and turned an
 * England take-home calculation into a Scottish one. Checked on the CLI (-F/-f paths, --data bodies at
 * any depth, the query) and over HTTP against `publicdata serve`, on the example domain's calculator
 * (test/support/example-domain/calculate.ts: an optional `colour` plays the part of the region).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { json, runCli } from '../support/cli.js';
import { startTestServer } from '../support/serve.js';

const CALC = '/v1/example/calculate';
const proto = Object.prototype as Record<string, unknown>;

afterEach(() => {
  // Whatever a failing run did, later tests start from a clean prototype.
  for (const k of ['region', 'colour', 'x', 'polluted']) delete proto[k];
});

describe('api refuses prototype keys', () => {
  it('-F __proto__.colour=red: a usage error, Object.prototype untouched', async () => {
    const r = await runCli(['api', 'POST', CALC, '-F', '__proto__.colour=red', '-F', 'amount=30']);
    expect(r.code).toBe(2);
    expect(json(r).error).toMatchObject({ code: 'usage_error' });
    expect(json(r).error.message).toMatch(/^-F __proto__\.colour: '__proto__' is not allowed as a name/);
    expect(proto.colour).toBeUndefined();
    expect(({} as Record<string, unknown>).colour).toBeUndefined();
  });

  it('constructor and prototype in -F/-f paths, and in GET fields, are refused too', async () => {
    for (const args of [
      ['POST', CALC, '-F', 'constructor.prototype.x=1'],
      ['POST', CALC, '-f', 'scenario.prototype=1'],
      ['GET', '/v1/example/items', '-F', '__proto__=x'],
      ['GET', '/v1/example/items?constructor=x'],
    ]) {
      const r = await runCli(['api', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(json(r).error.code, args.join(' ')).toBe('usage_error');
    }
    expect(proto.x).toBeUndefined();
  });

  it('a --data body with __proto__ at any depth is 400 bad_request naming the field', async () => {
    const r = await runCli(['api', 'POST', CALC, '--data', '{"amount":30,"__proto__":{"colour":"red"}}']);
    expect(r.code).toBe(2);
    expect(json(r).error).toMatchObject({ code: 'bad_request' });
    expect(json(r).error.message).toMatch(/^Request body field '__proto__' is refused/);
    const deep = await runCli(['api', 'POST', CALC, '--data', '{"amount":1,"transactions":[{"net":1,"constructor":{}}]}']);
    expect(json(deep).error.message).toMatch(/^Request body field 'transactions\[0\]\.constructor' is refused/);
  });

  it('the calculation without the key still counts every colour (the refusal is what changed)', async () => {
    const ok = json(await runCli(['api', 'POST', CALC, '-F', 'amount=30']));
    // counts up to 30, every colour: ids 1 to 4 (count = id x 7), 7 + 14 + 21 + 28
    expect(ok.data).toMatchObject({ colour: null, item_count: 4, total_count: 70 });
  });
});

describe('serve refuses prototype keys', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  it('in the body (400 bad_request) and the query (400 invalid_parameter)', async () => {
    const s = await startTestServer();
    stop = () => s.close();
    const post = await fetch(`${s.url}/example/calculate`, { method: 'POST', body: '{"amount":30,"__proto__":{"colour":"red"}}' });
    expect(post.status).toBe(400);
    expect(((await post.json()) as { error: { code: string } }).error.code).toBe('bad_request');
    for (const q of ['__proto__=x', 'constructor=x', '__proto__=a&__proto__=b']) {
      const get = await fetch(`${s.url}/example/items?${q}`);
      expect(get.status, q).toBe(400);
      expect(((await get.json()) as { error: { code: string } }).error.code, q).toBe('invalid_parameter');
    }
    expect(proto.colour).toBeUndefined();
  });
});
