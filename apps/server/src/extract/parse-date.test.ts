import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, parseDate } from './parse-date.js';

const iso = (text: string) => {
  const d = parseDate(text);
  return d ? formatDateTime(d) : undefined;
};

describe('parseDate', () => {
  it.each([
    ['2024-05-14T09:12:00+01:00', '2024-05-14T09:12:00+01:00'],
    ['2024-05-14T09:12:00+0100', '2024-05-14T09:12:00+01:00'],
    ['2024-05-14 19:00', '2024-05-14T19:00:00Z'],
    ['2024-05-14', '2024-05-14T00:00:00Z'],
    ['March 5, 2024', '2024-03-05T00:00:00Z'],
    ['Posted on Mar 5th, 2024', '2024-03-05T00:00:00Z'],
    ['Thursday, 14 November 2024, 18:30', '2024-11-14T18:30:00Z'],
    ['5 March 2024, 7:30 PM', '2024-03-05T19:30:00Z'],
    ['12.03.2024', '2024-03-12T00:00:00Z'],
    ['03/12/2024', '2024-03-12T00:00:00Z'],
    ['25/12/2024', '2024-12-25T00:00:00Z'],
    ['2024/7/9', '2024-07-09T00:00:00Z'],
    ['14 mars 2024', '2024-03-14T00:00:00Z'],
    ['June 2024', '2024-06-01T00:00:00Z'],
  ])('reads %s', (text, expected) => {
    expect(iso(text)).toBe(expected);
  });

  it('reads a zone named after the time as an offset (a date-time needs one)', () => {
    expect(parseDate('Last updated 2024-05-31 00:35:55 UTC')?.offset).toBe('Z');
    expect(parseDate('2024-05-31 00:35:55 GMT')?.offset).toBe('Z');
    expect(parseDate('2024-05-31 00:35:55')?.offset).toBeUndefined();
  });

  it('rejects impossible dates and text without a date', () => {
    expect(parseDate('2024-02-30')).toBeUndefined();
    expect(parseDate('31.13.2024')).toBeUndefined();
    expect(parseDate('tomorrow evening')).toBeUndefined();
  });

  it('formats a plain date', () => {
    const d = parseDate('9 October 2024');
    expect(d && formatDate(d)).toBe('2024-10-09');
  });
});
