/**
 * The table view of an empty record list: a list answer says "(no records)"; a record holding its list
 * (crime outcomes: the crime, then its outcomes) shows the record's details first and then "(no
 * outcomes)", instead of "(no records)" above the details.
 */
import { describe, expect, it } from 'vitest';
import { terminalView } from '../../src/output/view.js';
import type { RenderContext } from '../../src/output/types.js';

const rc: RenderContext = { format: 'table', color: false, columns: 100, tty: false, wide: false, options: {} };

describe('table view, no records', () => {
  it('a list answer: (no records)', async () => {
    expect(await terminalView([], [], undefined, rc)).toBe('(no records)\n');
  });

  it('a record holding an empty list: its details, then (no <list>)', async () => {
    const data = { crime_id: 'abc123', month: '2024-01', category: 'burglary', outcomes: [] as unknown[] };
    const out = await terminalView(data, data.outcomes as never, 'outcomes', rc);
    expect(out.indexOf('abc123')).toBeGreaterThanOrEqual(0);
    expect(out.endsWith('(no outcomes)\n')).toBe(true);
    expect(out).not.toContain('(no records)');
    expect(out.indexOf('abc123')).toBeLessThan(out.indexOf('(no outcomes)'));
  });
});
