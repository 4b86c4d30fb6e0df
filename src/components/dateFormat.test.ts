import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatTime, nextUtcDayStart } from './dateFormat';

// 07:30 on the 23rd in Beijing, 18:30 on the 22nd in New York.
const lateUtc = '2026-11-22T23:30:00.000Z';

describe('dates on the member clock', () => {
  it('shows a moment with its time of day in the given zone and language', () => {
    expect(formatDateTime(lateUtc, 'zh', 'Asia/Shanghai')).toBe('2026年11月23日 07:30');
    expect(formatDateTime(lateUtc, 'en', 'Asia/Shanghai')).toBe('Nov 23, 2026, 07:30');
    expect(formatDateTime(lateUtc, 'zh', 'America/New_York')).toBe('2026年11月22日 18:30');
    expect(formatDateTime(lateUtc, 'en', 'America/New_York')).toBe('Nov 22, 2026, 18:30');
  });
  it('shows a day in the given zone, not in UTC', () => {
    expect(formatDate(lateUtc, 'en', 'Asia/Shanghai')).toBe('Nov 23, 2026');
    expect(formatDate(lateUtc, 'en', 'UTC')).toBe('Nov 22, 2026');
  });
  it('returns what is not a date unchanged', () => {
    expect(formatDateTime('soon', 'en', 'UTC')).toBe('soon');
    expect(formatDate('', 'en', 'UTC')).toBe('');
  });
  it('finds where the next UTC day starts, and shows it on the member clock', () => {
    expect(nextUtcDayStart(new Date(lateUtc)).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(nextUtcDayStart(new Date('2026-11-23T00:00:00.000Z')).toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(nextUtcDayStart(new Date('2026-12-31T12:00:00.000Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    const reset = nextUtcDayStart(new Date(lateUtc));
    expect(formatTime(reset, 'zh', 'Asia/Shanghai')).toBe('08:00');
    expect(formatTime(reset, 'en', 'America/New_York')).toBe('19:00');
    expect(formatTime(reset, 'en', 'Asia/Kolkata')).toBe('05:30');
    // Summer time moves it: the UTC day starts at 20:00 in New York in July.
    expect(formatTime(nextUtcDayStart(new Date('2026-07-01T12:00:00Z')), 'en', 'America/New_York')).toBe('20:00');
  });
});
