/** The archive layout helpers: member names, months carried, the newest N, month ends. */
import { describe, expect, it } from 'vitest';
import { monthEnd, monthsCarried, newestMonths, parseMemberName } from '../../src/domains/crime/archive.js';

describe('crime archive layout', () => {
  it('reads street and outcomes member names, skips stop-and-search and others', () => {
    expect(parseMemberName('2024-01/2024-01-city-of-london-street.csv')).toEqual({
      name: '2024-01/2024-01-city-of-london-street.csv', month: '2024-01', force: 'city-of-london', kind: 'street',
    });
    expect(parseMemberName('2024-01/2024-01-metropolitan-outcomes.csv')?.kind).toBe('outcomes');
    expect(parseMemberName('2024-01-btp-street.csv')?.force).toBe('btp');
    expect(parseMemberName('2024-01/2024-01-surrey-stop-and-search.csv')).toBeUndefined();
    expect(parseMemberName('2024-13/2024-13-surrey-street.csv')).toBeUndefined();
    expect(parseMemberName('README.txt')).toBeUndefined();
  });

  it('months carried are those with a street file; the newest N of them', () => {
    const ms = ['2024-02/2024-02-a-street.csv', '2024-01/2024-01-a-street.csv', '2024-03/2024-03-a-outcomes.csv', '2023-12/2023-12-b-street.csv']
      .map((n) => parseMemberName(n)!);
    expect(monthsCarried(ms)).toEqual(['2023-12', '2024-01', '2024-02']);
    expect(newestMonths(monthsCarried(ms), 2)).toEqual(['2024-01', '2024-02']);
    expect(newestMonths(monthsCarried(ms), 36)).toEqual(['2023-12', '2024-01', '2024-02']);
  });

  it('a month is as of its last day', () => {
    expect(monthEnd('2024-02')).toBe('2024-02-29');
    expect(monthEnd('2025-12')).toBe('2025-12-31');
  });
});
