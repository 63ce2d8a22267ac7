import { describe, expect, it } from 'vitest';
import { detectCurrency, parseDurationMinutes, parseNumber, parseRange } from './parse-number.js';

describe('parseNumber', () => {
  it.each([
    ['$1,299.00', 1299],
    ['1.299,00 €', 1299],
    ['1 299,50 kr', 1299.5],
    ['12,5', 12.5],
    ['1,500', 1500],
    ['1.5 kg', 1.5],
    ['1.299 €', 1299],
    ['€1.234.567', 1234567],
    ['$85k', 85000],
    ['US$2.4 billion', 2_400_000_000],
    ['-3.25', -3.25],
    ['Rated 4.8/5', 4.8],
    ['12,500', 12500],
  ])('reads %s as %d', (text, value) => {
    expect(parseNumber(text)).toBeCloseTo(value, 6);
  });

  it('finds no number in text without digits', () => {
    expect(parseNumber('Call for price')).toBeUndefined();
    expect(parseNumber('')).toBeUndefined();
  });
});

describe('parseRange', () => {
  it('reads both ends of salary ranges', () => {
    expect(parseRange('$50,000 – $70,000')).toEqual([50000, 70000]);
    expect(parseRange('€55,000 - €68,000 per year')).toEqual([55000, 68000]);
    expect(parseRange('85-110k')).toEqual([85000, 110000]);
    expect(parseRange('from 20 to 30 EUR')).toEqual([20, 30]);
  });
  it('refuses a single number or a reversed range', () => {
    expect(parseRange('$50,000')).toBeUndefined();
    expect(parseRange('70 - 50')).toBeUndefined();
  });
});

describe('parseDurationMinutes', () => {
  it('reads ISO 8601 and worded durations', () => {
    expect(parseDurationMinutes('PT1H30M')).toBe(90);
    expect(parseDurationMinutes('PT45M')).toBe(45);
    expect(parseDurationMinutes('P1DT2H')).toBe(1560);
    expect(parseDurationMinutes('1 hr 10 mins')).toBe(70);
    expect(parseDurationMinutes('2 hours')).toBe(120);
    expect(parseDurationMinutes('soon')).toBeUndefined();
  });
});

describe('detectCurrency', () => {
  it('maps signs and codes to ISO 4217', () => {
    expect(detectCurrency('$12')).toBe('USD');
    expect(detectCurrency('12 €')).toBe('EUR');
    expect(detectCurrency('£68.00')).toBe('GBP');
    expect(detectCurrency('1 495 kr')).toBe('SEK');
    expect(detectCurrency('C$24.00')).toBe('CAD');
    expect(detectCurrency('CHF 40')).toBe('CHF');
    expect(detectCurrency('42')).toBeUndefined();
  });
});
