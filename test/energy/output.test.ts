/**
 * The energy rates table keeps its measure (issue 28; from test/cli/measures, whose shared form is now in
 * test/kit/ on the test-only example domain). Not synced: Ofgem's shipped GB-average figures.
 */
import { describe } from 'vitest';
import { isolatedEnv } from '../support/cli.js';
import { measureTests } from '../support/output-checks.js';

const env = isolatedEnv({ NO_COLOR: '1' });

describe('the energy rates table keeps its measure; --wide fits the terminal', () => {
  measureTests([{ args: ['energy', 'rates'], measure: 'standing_charge', value: (r) => String(r.standing_charge) }], () => env);
});
