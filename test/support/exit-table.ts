/**
 * The README's exit table and the statuses routes declare for an error code: what the exit-code tests
 * (test/cli/exit-codes.test.ts, and a domain's own cases) read their expectations from.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ParamSpec } from '../../src/contract/route.js';
import { ROUTES } from '../../src/registry.js';

/** README "## Exit codes" table: exit -> the backticked error codes of its row. */
export function readmeExitTable(): Map<number, string[]> {
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
export function declaredStatuses(code: string): number[] {
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
