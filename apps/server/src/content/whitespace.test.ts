import { describe, expect, it } from 'vitest';
import { collapseSpaces } from './whitespace.js';

describe('collapseSpaces', () => {
  it('replaces every whitespace run by one space, as /\\s+/g does', () => {
    const samples = [
      '',
      ' ',
      'one two three',
      'one  two',
      '\n',
      'line\nbreak',
      ' \t\n lead and trail \r\n',
      'tab\there',
      'no\u00a0break\u2003em\u3000ideographic',
      'a \u00a0b',
      '\ufeffbom',
      'x\f\vy',
    ];
    for (const text of samples) expect(collapseSpaces(text)).toBe(text.replace(/\s+/g, ' '));
  });

  it('returns text whose words are one space apart unchanged', () => {
    expect(collapseSpaces('words one space apart')).toBe('words one space apart');
  });
});
