/**
 * A table of many rows (`sql ... --format table` of 300,000 rows) is drawn, not refused with "Maximum call
 * stack size exceeded": the column widths were taken by spreading every cell into Math.max.
 */
import { describe, expect, it } from 'vitest';
import { recordsTable } from '../../src/output/view.js';

describe('a record table of 300,000 rows', () => {
  it('is drawn, each column as wide as its widest cell', async () => {
    const rows = Array.from({ length: 300_000 }, (_, i) => ({ i }));
    const text = await recordsTable(rows, { color: false, columns: 0, wide: false });
    const lines = text.split('\n');
    // the widest cell is 299999 (6 characters): every body line is '│ ' + 6 + ' │'
    expect(lines.find((l) => l.includes('299999'))).toBe('│ 299999 │');
    expect(lines.filter((l) => /^│ \d+ +│$/.test(l)).length).toBe(300_000);
  });
});

describe('a record table drawn in chunks', () => {
  it('has the lines one table of the same rows would have', async () => {
    // 25,000 rows: three chunks; the same rows as one table are drawn at the widths the chunks use
    const rows = Array.from({ length: 25_000 }, (_, i) => ({ id: i, name: `n${i % 7}` }));
    const text = await recordsTable(rows, { color: false, columns: 0, wide: false });
    const lines = text.trimEnd().split('\n');
    // top border, head, 25,000 rows, bottom border (the compact style draws no line between rows): no
    // border between the chunks
    expect(lines.length).toBe(25_003);
    expect(lines.slice(2, -1).every((l) => /^│ \d+ +│ n\d +│$/.test(l))).toBe(true);
    expect(lines[2]).toBe('│ 0     │ n0   │');
    expect(lines.at(-2)).toBe('│ 24999 │ n2   │'); // 24999 = 7 x 3571 + 2
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
  });
});

describe('rows written without cli-table3 (one-line cells that fit)', () => {
  it('are the lines cli-table3 draws for the same rows', async () => {
    const Table = (await import('cli-table3')).default;
    const rows = [
      { name: 'Zoë Ångström', code: 'E01000916', n: '0', note: '' },
      { name: 'a', code: 'x y  z', n: '123456', note: 'cut…' },
      { name: '  padded  ', code: '', n: '-1.5', note: 'café, £12.00' },
    ];
    const ours = await recordsTable(rows, { color: false, columns: 0, wide: true });
    const heads = Object.keys(rows[0]!);
    const widths = heads.map((h) => Math.max(h.length, ...rows.map((r) => (r as Record<string, string>)[h]!.length)) + 2);
    const t = new Table({ head: heads, style: { head: [], border: [] }, chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' }, wordWrap: true, colWidths: widths });
    for (const r of rows) t.push(heads.map((h) => (r as Record<string, string>)[h]!));
    expect(ours).toBe(`${t.toString()}\n`);
    expect(ours.split('\n')[2]).toBe('│ Zoë Ångström │ E01000916 │ 0      │              │');
  });
});
