/**
 * The UK civil date (Europe/London) of an instant, without Intl: British Summer Time runs from 01:00 UTC
 * on the last Sunday of March to 01:00 UTC on the last Sunday of October (Summer Time Order 2002,
 * SI 2002/262). Intl.DateTimeFormat with a time zone costs 20-90 ms at start-up (ICU data), more than a
 * whole calculator answer. (src/domains/tax/tax-year.ts has the same rule; this is the shared copy.)
 */
function lastSunday(year: number, month: number): number {
  const last = new Date(Date.UTC(year, month + 1, 0));
  return last.getUTCDate() - last.getUTCDay();
}

export function ukDate(now: Date): string {
  const y = now.getUTCFullYear();
  const bstStart = Date.UTC(y, 2, lastSunday(y, 2), 1);
  const bstEnd = Date.UTC(y, 9, lastSunday(y, 9), 1);
  const t = now.getTime();
  return new Date(t >= bstStart && t < bstEnd ? t + 3_600_000 : t).toISOString().slice(0, 10);
}
