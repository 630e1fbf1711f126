/** UK civil time without Intl (src/uk-time.ts), checked against Intl's Europe/London data around the clock changes. */
import { describe, expect, it } from 'vitest';
import { ukDate, ukLocalToUtc } from '../../src/uk-time.js';

const f = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
const wall = (ms: number) => {
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
};

describe('uk time', () => {
  it('every half hour of 2021 and 2024: the instant ukLocalToUtc gives reads back as the same London wall time', () => {
    let checked = 0;
    for (const y of [2021, 2024]) {
      for (let ms = Date.UTC(y, 0, 1); ms < Date.UTC(y + 1, 0, 1); ms += 1_800_000) {
        const local = wall(ms);
        const utc = ukLocalToUtc(local.slice(0, 10), local.slice(11));
        expect(wall(Date.parse(utc))).toBe(local);
        expect(ukDate(new Date(ms))).toBe(local.slice(0, 10));
        checked++;
      }
    }
    expect(checked).toBe(2 * 365 * 48 + 48); // 2024 is a leap year
  });

  it('12:30 on 7 July 2021 (BST) is 11:30 UTC; in the doubled hour of 31 October 2021 the BST reading is taken', () => {
    expect(ukLocalToUtc('2021-07-07', '12:30:00')).toBe('2021-07-07T11:30:00Z');
    expect(ukLocalToUtc('2021-01-07', '12:30')).toBe('2021-01-07T12:30:00Z');
    expect(ukLocalToUtc('2021-10-31', '01:30:00')).toBe('2021-10-31T00:30:00Z');
    // 01:30 on 28 March 2021 never showed on a UK clock (01:00 GMT became 02:00 BST): read as GMT
    expect(ukLocalToUtc('2021-03-28', '01:30:00')).toBe('2021-03-28T01:30:00Z');
  });
});
