/**
 * Every error code the README's exit table names gets that row's exit from exitCodeFor, whatever HTTP
 * status it comes with: its usual status (ERROR_CODES), the status any route declares for it
 * (ParamSpec.errorStatus, e.g. the collisions list's 422 invalid_parameter), and the alternatives the
 * table itself names (insufficient_credits with 402 or 429; not_available_offline as serve's 501).
 * The expectation is read from README.md, not from the code under test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, exitCodeFor } from '../../src/contract/errors.js';
import type { ParamSpec } from '../../src/contract/route.js';
import { reportInternalError } from '../../src/cli.js';
import { ROUTES } from '../../src/registry.js';
import { json, runCli } from '../support/cli.js';

/** README "## Exit codes" table: exit -> the backticked error codes of its row. */
function readmeExitTable(): Map<number, string[]> {
  const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Exit codes'), readme.indexOf('## Troubleshooting'));
  const rows = new Map<number, string[]>();
  for (const line of section.split('\n')) {
    const m = /^\| (\d) \| (.*) \|$/.exec(line);
    if (!m) continue;
    // Error codes are identifiers with an underscore (options start with --, sources are plain words).
    const codes = [...m[2]!.matchAll(/`([A-Za-z]+_[A-Za-z_]+)`/g)].map((x) => x[1]!);
    rows.set(Number(m[1]), codes);
  }
  return rows;
}

/** The statuses routes declare for a code (a parameter's own error code and status). */
function declaredStatuses(code: string): number[] {
  const out: number[] = [];
  const visit = (specs: readonly ParamSpec[] | undefined, where: 'query' | 'body') => {
    for (const p of specs ?? []) {
      const c = p.error ?? (where === 'body' ? 'bad_request' : 'invalid_parameter');
      if (c === code && p.errorStatus !== undefined) out.push(p.errorStatus);
      visit(p.fields, where);
    }
  };
  for (const r of ROUTES) {
    visit(r.pathParams, 'query');
    visit(r.query, 'query');
    visit(r.body, 'body');
  }
  return out;
}

const EXTRA: Record<string, number[]> = { insufficient_credits: [402, 429], not_available_offline: [501, 503] };

describe('exit codes follow the error code (README exit table)', () => {
  const table = readmeExitTable();

  it('the table has rows 0 to 6 and names the codes', () => {
    expect([...table.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    // Written out here from the README, so a row losing a code is noticed too.
    expect(table.get(2)).toEqual(['usage_error', 'invalid_parameter', 'bad_request', 'invalid_region', 'invalid_year', 'VALIDATION_ERROR']);
    for (const codes of table.values()) for (const c of codes) expect(Object.keys(ERROR_CODES), c).toContain(c);
  });

  it('the collisions date filters are a route-declared 422 invalid_parameter (the case this guards)', () => {
    expect(declaredStatuses('invalid_parameter')).toContain(422);
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

  it('vehicles collisions --from 2022-02-30 (HTTP 422 invalid_parameter): exit 2, as --quarter-from 2020-02-30 (400)', async () => {
    const col = await runCli(['vehicles', 'collisions', '--from', '2022-02-30', '--source', 'local', '--format', 'json']);
    const lic = await runCli(['vehicles', 'licensing', '--quarter-from', '2020-02-30', '--source', 'local', '--format', 'json']);
    expect([col.code, json(col).error.code]).toEqual([table.get(2)!.includes('invalid_parameter') ? 2 : -1, 'invalid_parameter']);
    expect([lic.code, json(lic).error.code]).toEqual([2, 'invalid_parameter']);
  });

  it('internal_error when publicdata itself fails -> exit 1', () => {
    let err = '';
    const io = { stdout: { write: () => true }, stderr: { write: (s: string) => ((err += s), true) } };
    const exit = reportInternalError({ io, env: {} } as unknown as Parameters<typeof reportInternalError>[0], new Error('boom'), ['vehicles']);
    expect(err).toContain('internal_error');
    expect(exit).toBe(table.get(1)!.includes('internal_error') ? 1 : -1);
  });
});
