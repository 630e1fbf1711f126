/**
 * Every error code the README's exit table names gets that row's exit from exitCodeFor, whatever HTTP
 * status it comes with: its usual status (ERROR_CODES), the status any route declares for it
 * (ParamSpec.errorStatus, e.g. the collisions list's 422 invalid_parameter), and the alternatives the
 * table itself names (insufficient_credits with 402 or 429; not_available_offline as serve's 501).
 * The expectation is read from README.md, not from the code under test. A domain's own cases (the
 * collisions list's 422) are in its folder (test/vehicles/exit-codes.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, exitCodeFor } from '../../src/contract/errors.js';
import { reportInternalError } from '../../src/cli.js';
import { declaredStatuses, readmeExitTable } from '../support/exit-table.js';

const EXTRA: Record<string, number[]> = { insufficient_credits: [402, 429], not_available_offline: [501, 503] };

describe('exit codes follow the error code (README exit table)', () => {
  const table = readmeExitTable();

  it('the table has rows 0 to 6 and names the codes', () => {
    expect([...table.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    // Written out here from the README, so a row losing a code is noticed too.
    expect(table.get(2)).toEqual(['usage_error', 'invalid_parameter', 'bad_request', 'invalid_region', 'invalid_year', 'VALIDATION_ERROR']);
    for (const codes of table.values()) for (const c of codes) expect(Object.keys(ERROR_CODES), c).toContain(c);
  });

  for (const [exit, codes] of readmeExitTable()) {
    for (const code of codes) {
      // internal_error is in two rows: publicdata's own failure (1, below) and the API's 500 envelope (6).
      if (code === 'internal_error' && exit === 1) continue;
      it(`${code} -> exit ${exit}`, () => {
        const statuses = new Set([ERROR_CODES[code]!.status, ...declaredStatuses(code), ...(EXTRA[code] ?? [])]);
        for (const s of statuses) expect(exitCodeFor(code, s), `${code} with ${s}`).toBe(exit);
        expect(exitCodeFor(code), `${code} without a status`).toBe(exit);
      });
    }
  }

  it('internal_error when publicdata itself fails -> exit 1', () => {
    let err = '';
    const io = { stdout: { write: () => true }, stderr: { write: (s: string) => ((err += s), true) } };
    const exit = reportInternalError({ io, env: {} } as unknown as Parameters<typeof reportInternalError>[0], new Error('boom'), ['example']);
    expect(err).toContain('internal_error');
    expect(exit).toBe(table.get(1)!.includes('internal_error') ? 1 : -1);
  });
});
