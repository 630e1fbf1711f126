/** earnings's date-scope declaration (DatasetInfo.dateScope): what the shared sync tests (test/cli/sync-*-options.test.ts) check for any dataset. */
import { describe, expect, it } from 'vitest';
import { ds } from '../support/datasets.js';

describe('earnings --years', () => {
  it('is declared where discovery alone reads it (a --from file with it is a usage error)', () => {
    expect((ds('earnings').dateScope ?? []).filter((o) => o.discoveryOnly).map((o) => o.name)).toContain('years');
  });
});
