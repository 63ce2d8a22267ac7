import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linearRegExp, MAX_PATTERN_LENGTH, PatternRefusedError } from './linear-regexp.js';

/** Patterns from a small grammar of what JSON Schemas use: classes, escapes, anchors, groups, quantifiers. */
const atom = fc.constantFrom(
  'a',
  'b',
  '.',
  '\\s',
  '\\S',
  '\\d',
  '\\w',
  '\\W',
  '\\b',
  '[ab]',
  '[^a]',
  '[\\s1]',
  '[^\\s]',
  '[\\S]',
  '\\u00a0',
  '\\u{1F600}',
  '\\ud83d\\ude00',
  '[^]',
  '\\.',
  '\\n',
  '\\p{Lu}',
  'é',
);
const pattern: fc.Arbitrary<string> = fc
  .letrec<{ node: string }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      atom,
      fc.tuple(tie('node'), tie('node')).map(([x, y]) => x + y),
      fc.tuple(tie('node'), tie('node')).map(([x, y]) => `(?:${x}|${y})`),
      fc
        .tuple(tie('node'), fc.constantFrom('*', '+', '?', '{1,3}', '*?', '{2}'))
        .map(([x, q]) => `(${x})${q}`),
    ),
  }))
  .node.map((body) => `^${body}`);
const input = fc.string({
  unit: fc.constantFrom('a', 'b', ' ', '\u00a0', '\ufeff', '\n', '\r', '\u2028', '1', 'é', 'É', '😀', '.'),
  maxLength: 12,
});

describe('linearRegExp', () => {
  it('answers as JavaScript RegExp with the u flag does, on generated patterns and inputs', () => {
    fc.assert(
      fc.property(pattern, fc.array(input, { minLength: 1, maxLength: 8 }), (source, inputs) => {
        const linear = linearRegExp(source);
        const native = new RegExp(source, 'u');
        for (const text of inputs)
          expect(linear.test(text), `/${source}/u on ${JSON.stringify(text)}`).toBe(native.test(text));
      }),
      { numRuns: 400 },
    );
  });

  it('keeps JavaScript meanings RE2 spells differently: \\s, \\S, ".", \\u escapes, [^]', () => {
    const cases: [string, string, boolean][] = [
      ['^\\s$', '\u00a0', true],
      ['^\\s$', '\ufeff', true],
      ['^\\S$', '\u00a0', false],
      ['^[\\S]$', '\u3000', false],
      ['^.$', '\r', false],
      ['^.$', '\u2028', false],
      ['^.$', '😀', true],
      ['^\\ud83d\\ude00$', '😀', true],
      ['^[^]$', '\n', true],
    ];
    for (const [source, text, expected] of cases)
      expect(linearRegExp(source).test(text), source).toBe(expected);
  });

  it('runs (a+)+$ on a long run of a and a ! in linear time (a backtracking engine needs ~2^n steps)', () => {
    expect(linearRegExp('(a+)+$').test(`${'a'.repeat(100_000)}!`)).toBe(false);
    expect(linearRegExp('^(\\w+\\s?)*$').test(`${'word '.repeat(20_000)}!`)).toBe(false);
  });

  it('refuses backreferences, lookaround, invalid and oversized patterns with the reason', () => {
    const refusal = (source: string) => {
      try {
        linearRegExp(source);
      } catch (error) {
        expect(error).toBeInstanceOf(PatternRefusedError);
        return (error as Error).message;
      }
      throw new Error(`${source} was accepted`);
    };
    for (const source of ['(a)\\1', '(?<x>a)\\k<x>', '(?=a)', 'a(?!b)', '(?<=a)b', '(?<!a)b'])
      expect(refusal(source), source).toMatch(/lookaround or a backreference/);
    expect(refusal('(')).toMatch(/not a valid regular expression/);
    expect(refusal('\\p{Script=Greek}')).toMatch(/not supported by the linear-time matcher/);
    expect(refusal('x'.repeat(MAX_PATTERN_LENGTH + 1))).toMatch(/longer than/);
    expect(refusal('[\\s\\S]{1000}'.repeat(6))).toMatch(/too large once compiled/);
  });
});
