/**
 * vehicles' own exit-code cases (moved from test/cli/exit-codes.test.ts): the collisions list's date
 * filters are a route-declared 422 invalid_parameter, which the README's exit table (row 2) makes exit 2,
 * as the licensing list's 400.
 */
import { describe, expect, it } from 'vitest';
import { json, runCli } from '../support/cli.js';
import { declaredStatuses, readmeExitTable } from '../support/exit-table.js';

describe('vehicles: exit codes follow the error code (README exit table)', () => {
  const table = readmeExitTable();

  it('the collisions date filters are a route-declared 422 invalid_parameter (the case this guards)', () => {
    expect(declaredStatuses('invalid_parameter')).toContain(422);
  });

  it('vehicles collisions --from 2022-02-30 (HTTP 422 invalid_parameter): exit 2, as --quarter-from 2020-02-30 (400)', async () => {
    const col = await runCli(['vehicles', 'collisions', '--from', '2022-02-30', '--source', 'local', '--format', 'json']);
    const lic = await runCli(['vehicles', 'licensing', '--quarter-from', '2020-02-30', '--source', 'local', '--format', 'json']);
    expect([col.code, json(col).error.code]).toEqual([table.get(2)!.includes('invalid_parameter') ? 2 : -1, 'invalid_parameter']);
    expect([lic.code, json(lic).error.code]).toEqual([2, 'invalid_parameter']);
  });
});
