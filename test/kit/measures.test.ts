/**
 * Issue 28: a terminal table keeps the measure its route exists for (RouteSpec.measures) at 80 and 100
 * columns, and `--wide` never prints a line wider than the terminal (a record view instead). Run on the
 * test-only example domain, whose titles (its measure) are longer than an 80-column table gives them;
 * each domain's own measures are checked in its tests (test/<domain>/output.test.ts).
 */
import '../support/example-domain/index.js';
import { describe } from 'vitest';
import { isolatedEnv } from '../support/cli.js';
import { measureTests } from '../support/output-checks.js';

const env = isolatedEnv({ NO_COLOR: '1' });

describe('a table keeps the measure its route exists for; --wide fits the terminal', () => {
  measureTests([
    { args: ['example', 'items', '--per-page', '10'], measure: 'title', value: (r) => String(r.title) },
    { args: ['example', 'items', '--colour', 'red'], measure: 'title', value: (r) => String(r.title) },
  ], () => env);
});
