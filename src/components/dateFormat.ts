/**
 * A date from the API (ISO-8601 UTC) in the member's language, e.g. "2026年11月23日" or "Nov 23, 2026".
 *
 * @example formatDate('2026-11-23T08:00:00.000Z', 'en') // 'Nov 23, 2026'
 */
export function formatDate(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}
