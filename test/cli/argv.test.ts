/**
 * Argv to route call, per command, without running anything: the context's runCall seam (the GitHub
 * CLI's runF) receives the call a command built from its arguments and flags. The command kit and `api`,
 * on the example domain (test/support/example-domain/); each domain's own mappings are in test/<domain>/.
 */
import { describe, expect, it } from 'vitest';
import { callOf } from '../support/run-call.js';

describe('the command kit maps argv to the route call', () => {
  it('--batch is handed over with the flag defaults as the base body', async () => {
    expect(await callOf(['example', 'calculate', '--batch', '--colour', 'red'])).toMatchObject({ body: { colour: 'red' }, batch: true });
  });

  it('a positional amount and flags build the POST body; amounts as people type them', async () => {
    expect(await callOf(['example', 'calculate', '30', '--colour', 'green', '--label', 'abc'])).toEqual({
      method: 'POST',
      path: '/v1/example/calculate',
      query: {},
      body: { amount: 30, colour: 'green', label: 'abc' },
      batch: false,
    });
    expect((await callOf(['example', 'calculate', '1,000'])).body).toEqual({ amount: 1000 });
    expect((await callOf(['example', 'calculate', '1.5k'])).body).toEqual({ amount: 1500 });
  });
});

describe('other commands', () => {
  it('api: the path gets /v1, -F is typed, -f is a string, ?query is split', async () => {
    expect(await callOf(['api', 'POST', 'example/calculate', '-F', 'amount=30', '-f', 'label=abc'])).toEqual({
      method: 'POST',
      path: '/v1/example/calculate',
      query: {},
      body: { amount: 30, label: 'abc' },
      batch: false,
    });
    expect(await callOf(['api', 'GET', '/v1/example/items?page=2&per_page=5'])).toMatchObject({ path: '/v1/example/items', query: { page: '2', per_page: '5' } });
  });

  it('positional args to path and query', async () => {
    expect(await callOf(['example', 'items', 'lamp', '--colour', 'red'])).toMatchObject({ method: 'GET', path: '/v1/example/items', query: { name: 'lamp', colour: 'red' } });
    expect(await callOf(['example', 'show', '3'])).toMatchObject({ method: 'GET', path: '/v1/example/items/3', query: {} });
    expect(await callOf(['example', 'summary', '--colour', 'blue'])).toMatchObject({ path: '/v1/example/summary', query: { colour: 'blue' } });
  });
});
