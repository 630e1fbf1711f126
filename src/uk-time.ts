/**
 * UK civil time (Europe/London) without Intl's time-zone data (~20 ms at start-up): British Summer Time
 * runs from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October (Summer Time
 * Order 2002, SI 2002/262; the same rule since 1981 under the EU directives it carries on).
 */

/** Last Sunday of a month (UTC date number). */
function lastSunday(year: number, month: number): number {
  const last = new Date(Date.UTC(year, month + 1, 0));
  return last.getUTCDate() - last.getUTCDay();
}

/** Whether BST is in force at an instant (milliseconds since the epoch). */
export function isBst(ms: number): boolean {
  const y = new Date(ms).getUTCFullYear();
  return ms >= Date.UTC(y, 2, lastSunday(y, 2), 1) && ms < Date.UTC(y, 9, lastSunday(y, 9), 1);
}

/** The UK civil date (YYYY-MM-DD) of an instant. */
export function ukDate(now: Date): string {
  const t = now.getTime();
  return new Date(isBst(t) ? t + 3_600_000 : t).toISOString().slice(0, 10);
}

/**
 * The UTC instant (`YYYY-MM-DDTHH:MM:SSZ`) of a UK clock time (`date` YYYY-MM-DD, `time` HH:MM or
 * HH:MM:SS). In the hour the clocks go back (01:00-02:00 local on the last Sunday of October, which
 * happens twice) the first, BST, reading is taken; a time in the hour that does not exist when they go
 * forward (01:00-02:00 local on the last Sunday of March) is read as GMT.
 */
export function ukLocalToUtc(date: string, time: string): string {
  const local = Date.parse(`${date}T${time.length === 5 ? `${time}:00` : time}Z`);
  if (Number.isNaN(local)) throw new RangeError(`not a UK date and time: ${date} ${time}`);
  const utc = isBst(local - 3_600_000) ? local - 3_600_000 : local;
  return `${new Date(utc).toISOString().slice(0, 19)}Z`;
}
