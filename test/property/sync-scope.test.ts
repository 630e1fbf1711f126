/** price-paid's date-scope declaration (DatasetInfo.dateScope): what the shared sync tests (test/cli/sync-*-options.test.ts) check for any dataset. */
import { describe, expect, it } from 'vitest';
import { parseYearsOption } from '../../commands/sync-options.js';
import { ds } from '../support/datasets.js';

describe('price-paid --years', () => {
  it('is declared where discovery alone reads it (a --from file with it is a usage error)', () => {
    expect((ds('price-paid').dateScope ?? []).filter((o) => o.discoveryOnly).map((o) => o.name)).toContain('years');
  });
});

// moved from test/sync/upstream-shapes.test.ts
describe('--years checks the dataset it is given for', () => {
  it('price paid says where its data starts', () => {
    expect(() => parseYearsOption('1990', ['price-paid'])).toThrow(/price paid data starts in 1995/);
  });
});
