/**
 * Dates and times from the API (ISO-8601 UTC, docs/API.md) shown on the member's own clock: in the runtime's time zone
 * (the phone's), in the app's language. `timeZone` exists for tests of these functions; screens never pass it.
 */

/**
 * A day, e.g. "2026年11月23日" or "Nov 23, 2026" (announcements, team members, orders).
 *
 * @example formatDate('2026-11-23T08:00:00.000Z', 'en', 'Asia/Shanghai') // 'Nov 23, 2026'
 */
export function formatDate(iso: string, locale: string, timeZone?: string): string {
  return formatIso(iso, new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone }));
}

/**
 * A moment, date and time of day on a 24-hour clock, e.g. "2026年11月23日 07:30" or "Nov 23, 2026, 07:30" (money
 * records: a top-up at 07:30 in Beijing is on the 23rd, although it is the 22nd in UTC).
 *
 * @example formatDateTime('2026-11-22T23:30:00.000Z', 'en', 'Asia/Shanghai') // 'Nov 23, 2026, 07:30'
 */
export function formatDateTime(iso: string, locale: string, timeZone?: string): string {
  return formatIso(iso, new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23', timeZone }));
}

/**
 * A time of day on a 24-hour clock, e.g. "08:00".
 *
 * @example formatTime(new Date('2026-11-24T00:00:00.000Z'), 'zh', 'Asia/Shanghai') // '08:00'
 */
export function formatTime(date: Date, locale: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, { timeStyle: 'short', hourCycle: 'h23', timeZone }).format(date);
}

/**
 * The next 00:00 UTC after `now`: where the server's UTC day, and with it the daily withdrawal cap, starts again
 * (docs/API.md "Money": today's UTC total).
 *
 * @example nextUtcDayStart(new Date('2026-11-23T13:00:00Z')) // 2026-11-24T00:00:00.000Z
 */
export function nextUtcDayStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

function formatIso(iso: string, format: Intl.DateTimeFormat): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : format.format(date);
}
