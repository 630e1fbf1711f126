/** mot's date-scope declaration (DatasetInfo.dateScope): what the shared sync tests (test/cli/sync-*-options.test.ts) check for any dataset. */
import { describe, expect, it } from 'vitest';
import { parseYearsOption } from '../../commands/sync-options.js';
import { ds } from '../support/datasets.js';

describe('mot --years', () => {
  it('is declared where discovery alone reads it (a --from file with it is a usage error)', () => {
    expect((ds('mot').dateScope ?? []).filter((o) => o.discoveryOnly).map((o) => o.name)).toContain('years');
  });
});

// moved from test/sync/upstream-shapes.test.ts (price paid's own start: test/property/sync-scope.test.ts)
describe('--years checks the dataset it is given for', () => {
  it('road-safety and MOT are not told about price paid', () => {
    expect(parseYearsOption('1985-1990', ['road-safety'])).toEqual({ from: 1985, to: 1990 });
    expect(() => parseYearsOption('1975', ['road-safety'])).toThrow(/road safety data \(STATS19\) starts in 1979/);
    expect(() => parseYearsOption('1990', ['mot'])).toThrow(/MOT test data starts in 2005/);
    expect(() => parseYearsOption('1990', ['mot'])).not.toThrow(/price paid/);
  });
});
