import { describe, expect, it } from 'vitest';
import { fieldTokens, normalizeField, scoreField, tokenF1 } from './field-scores.js';

describe('field scores', () => {
  it('normalizes as the corpus README says: trim, collapse, case-insensitive, null as empty', () => {
    expect(normalizeField('  By\n\t Scott   Cunningham ')).toBe('by scott cunningham');
    expect(normalizeField(null)).toBe('');
    expect(normalizeField(undefined)).toBe('');
  });

  it('computes token F1, splitting CJK text into characters', () => {
    expect(tokenF1('Alex Heath', 'alex heath')).toBe(1);
    expect(tokenF1('By Steven Mufson', 'Steven Mufson')).toBeCloseTo(0.8);
    expect(tokenF1(null, '')).toBe(1);
    expect(tokenF1(null, 'Lorem')).toBe(0);
    expect(fieldTokens('腾讯网')).toEqual(['腾', '讯', '网']);
  });

  it('counts exact matches and nulls returned where the reference is null', () => {
    const figures = scoreField([
      { expected: 'A b', actual: 'a  B' },
      { expected: null, actual: null },
      { expected: null, actual: 'guess' },
      { expected: 'x', actual: 'y' },
    ]);
    expect(figures).toMatchObject({ pages: 4, exact: 0.5, absent: 2, nullWhenAbsent: 1 });
    expect(figures.f1).toBeCloseTo(0.5);
  });
});
