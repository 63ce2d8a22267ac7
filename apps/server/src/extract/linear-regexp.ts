import type { RE2JS } from 're2js';
import { requiredOnFirstUse } from '../required-on-first-use.js';

/**
 * re2js, loaded on the first pattern rather than at every server's start (with Ajv, ~70 ms of
 * CPU that a server serving no extraction schema never needed); its CommonJS build, required
 * synchronously since patterns are compiled inside Ajv's synchronous compile.
 */
const re2 = requiredOnFirstUse('re2js', (exports) => (exports as { RE2JS: typeof RE2JS }).RE2JS);

/** Longest `pattern` an extraction schema may use, in characters. */
export const MAX_PATTERN_LENGTH = 1000;
/**
 * Largest compiled pattern, in RE2 instructions: matching costs up to
 * (input length × program size), so a bound on both keeps one check short.
 */
export const MAX_PATTERN_PROGRAM_SIZE = 5000;

/** A pattern that cannot be run in linear time, or is too big: the schema is refused. */
export class PatternRefusedError extends Error {
  override readonly name = 'PatternRefusedError';
  constructor(
    readonly pattern: string,
    reason: string,
  ) {
    super(`pattern ${JSON.stringify(pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern)} ${reason}`);
  }
}

/** What Ajv needs of a compiled pattern: `test`, and a `toString` it uses as a cache key. */
export interface LinearRegExp {
  test(input: string): boolean;
  toString(): string;
}

/**
 * JavaScript's `\s` (WhiteSpace and LineTerminator of ECMA-262), which is
 * wider than RE2's ASCII `\s`, as the inside of an RE2 character class.
 */
const JS_SPACE_RANGES: [number, number][] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const hex = (code: number) => `\\x{${code.toString(16)}}`;
const classOf = (ranges: [number, number][]) =>
  ranges.map(([from, to]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`)).join('');
const JS_SPACE = classOf(JS_SPACE_RANGES);
const JS_NON_SPACE = classOf(
  [...JS_SPACE_RANGES, [0x110000, 0x110000] as [number, number]].reduce<{
    next: number;
    out: [number, number][];
  }>(({ next, out }, [from, to]) => ({ next: to + 1, out: from > next ? [...out, [next, from - 1]] : out }), {
    next: 0,
    out: [],
  }).out,
);
/** JavaScript's `.` without the `s` flag: anything but a line terminator (RE2's `.` only skips `\n`). */
const JS_DOT = '[^\\n\\r\\x{2028}\\x{2029}]';

const NOT_LINEAR = 'uses lookaround or a backreference, which cannot be matched in linear time';

/**
 * Rewrites an ECMA-262 pattern (already known to be valid with the `u` flag)
 * into RE2 syntax with the same meaning: `\s`, `\S` and `.` get JavaScript's
 * wider sets, `\uXXXX` (surrogate pairs joined) and `\u{…}` become `\x{…}`.
 * Backreferences and lookaround are refused: RE2 has no linear-time way to
 * run them. What remains (named groups, `\cX`, `[^]`) is left to re2js's own
 * translation.
 */
function toRe2Syntax(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (next === 'k' || /[1-9]/.test(next)) throw new PatternRefusedError(pattern, NOT_LINEAR);
      if (next === 's' || next === 'S') {
        const set = next === 's' ? JS_SPACE : JS_NON_SPACE;
        out += inClass ? set : `[${set}]`;
        i++;
      } else if (next === 'u' && pattern[i + 2] === '{') {
        const end = pattern.indexOf('}', i + 3);
        out += hex(Number.parseInt(pattern.slice(i + 3, end), 16));
        i = end;
      } else if (next === 'u') {
        let code = Number.parseInt(pattern.slice(i + 2, i + 6), 16);
        i += 5;
        const low = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(pattern.slice(i + 1));
        if (code >= 0xd800 && code <= 0xdbff && low) {
          code = 0x10000 + ((code - 0xd800) << 10) + (Number.parseInt(low[1]!, 16) - 0xdc00);
          i += 6;
        }
        out += hex(code);
      } else {
        out += c + next;
        i++;
      }
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
      // A `]` right after `[` or `[^` closes nothing in RE2 but ends the class in JavaScript (`[]`, `[^]`).
      if (pattern[i + 1] === '^') out += pattern[++i];
      if (pattern[i + 1] === ']') {
        out += pattern[++i];
        inClass = false;
      }
    } else if (c === '.') {
      out += JS_DOT;
    } else if (c === '(' && pattern[i + 1] === '?' && /^(=|!|<=|<!)/.test(pattern.slice(i + 2, i + 4))) {
      throw new PatternRefusedError(pattern, NOT_LINEAR);
    } else {
      out += c;
    }
  }
  return out;
}

/**
 * Compiles a JSON Schema `pattern` (ECMA-262 syntax) to a matcher that runs
 * in time linear in its input (RE2, through re2js, pure JavaScript), for
 * Ajv's `code.regExp` option. An untrusted pattern such as `(a+)+$` can then
 * not freeze a thread with catastrophic backtracking.
 *
 * @throws {PatternRefusedError} for a pattern that is not valid ECMA-262,
 * needs backtracking (backreferences, lookaround), uses syntax RE2 lacks, or
 * is over {@link MAX_PATTERN_LENGTH} characters or
 * {@link MAX_PATTERN_PROGRAM_SIZE} instructions.
 */
export function linearRegExp(pattern: string, flags = 'u'): LinearRegExp {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new PatternRefusedError(pattern, `is longer than ${MAX_PATTERN_LENGTH} characters`);
  }
  try {
    // Compiling (not running) a native RegExp checks the ECMA-262 syntax JSON Schema asks for.
    new RegExp(pattern, flags);
  } catch (error) {
    throw new PatternRefusedError(pattern, `is not a valid regular expression: ${(error as Error).message}`);
  }
  const syntax = toRe2Syntax(pattern);
  let compiled: RE2JS;
  try {
    const RE2 = re2();
    compiled = RE2.compile(RE2.translateRegExp(syntax));
  } catch (error) {
    throw new PatternRefusedError(
      pattern,
      `is not supported by the linear-time matcher (${(error as Error).message}); backreferences, lookaround and some Unicode property forms cannot be used`,
    );
  }
  if (compiled.programSize() > MAX_PATTERN_PROGRAM_SIZE) {
    throw new PatternRefusedError(
      pattern,
      `is too large once compiled (${compiled.programSize()} instructions; at most ${MAX_PATTERN_PROGRAM_SIZE})`,
    );
  }
  return { test: (input) => compiled.test(input), toString: () => `/${pattern}/${flags}` };
}
// Ajv puts `code` into generated source only for standalone code, which the server does not produce.
linearRegExp.code = 'linearRegExp';
