/*
 * Why not picomatch (used here until 2026-11-27): it compiles a glob to a JavaScript RegExp, and
 * V8 runs that by backtracking. `*a*a*a*a*a*a*a*a*a*a*b` becomes ten lazy `[^/]*?` in a row, and
 * against a link whose path is forty `a`s it took 6.6 s on the main thread (each star one more
 * power of the path's length); a crawl's `exclude_paths` may hold 100 such patterns of 512
 * characters, and the crawled site writes the links. Here a glob is compiled to a small program
 * run by a bounded backtracker that remembers every (instruction, position) it has tried, as
 * RE2's BitState does: a match costs at most (program size × path length) steps, whatever the
 * pattern.
 */

/** One instruction of a compiled glob. */
type Instruction =
  /** One character that passes `test` (`code`: the one code unit that does, for a plain character). */
  | { op: 'char'; test: (code: number) => boolean; next: number; code?: number | undefined }
  /** Try `first`, then `second`. */
  | { op: 'split'; first: number; second: number }
  | { op: 'jump'; to: number }
  | { op: 'match' };

const SLASH = 0x2f;
const notSlash = (code: number) => code !== SLASH;
const anyChar = () => true;

/** A glob compiled to a program, and whether a leading `!` negates it. */
export interface CompiledGlob {
  readonly program: readonly Instruction[];
  readonly negated: boolean;
}

/** Parse tree of a glob: a sequence of parts, each of which matches a stretch of the path. */
type Part =
  | { kind: 'char'; test: (code: number) => boolean; code?: number | undefined } // `code`: a plain character's
  | { kind: 'star' } // `*`: any run of characters but `/`
  | { kind: 'any' } // `**` as the whole pattern: anything
  | { kind: 'dirs' } // `**/` at a segment start: any run of whole segments, each with its `/`
  | { kind: 'tail' } // `/**` at the end: nothing, or `/` and anything
  | { kind: 'alt'; options: Part[][] };

/**
 * Compiles a glob over a path without its leading and trailing slashes.
 *
 * Syntax: `*` any run of characters within a segment, `**` as a whole segment any run of
 * segments (`a/**` matches `a` and `a/b/c`; elsewhere it is a `*`), `?` one character but `/`,
 * `[abc]`, `[a-z]`, `[!a]` or `[^a]` one character of a set (never `/`), `{a,b}` either
 * alternative (nested braces too), `\x` the character x itself, and a leading `!` negates the
 * whole glob. Anything else stands for itself; an unclosed `[` or `{` too.
 */
export function compileGlob(glob: string): CompiledGlob {
  let source = glob;
  let negated = false;
  while (source.startsWith('!')) {
    negated = !negated;
    source = source.slice(1);
  }
  const parts = parseSequence(source, 0, false).parts;
  const program: Instruction[] = [];
  emitSequence(parts, program);
  program.push({ op: 'match' });
  return { program, negated };
}

/**
 * The part of a glob's program a match may try at every position of a path: all of it but the
 * plain characters it starts with (those are tried once, at the start). A match costs at most this
 * many steps for each character of the path, plus the start.
 */
export function globSearchSize(glob: CompiledGlob): number {
  let start = 0;
  while (start < glob.program.length) {
    const instruction = glob.program[start]!;
    if (instruction.op !== 'char' || instruction.code === undefined) break;
    start += 1;
  }
  return Math.max(0, glob.program.length - 1 - start); // the final `match` is tried once per path end
}

/** True when the compiled glob matches the whole of `path`. */
export function globMatches(glob: CompiledGlob, path: string): boolean {
  return runProgram(glob.program, path) !== glob.negated;
}

interface Parsed {
  parts: Part[];
  /** Where parsing stopped: the end, or the `,` / `}` that ended an alternative. */
  end: number;
}

/** Parses from `start` to the end, or (inside braces) to the next top-level `,` or `}`. */
function parseSequence(source: string, start: number, inBraces: boolean): Parsed {
  const parts: Part[] = [];
  let i = start;
  while (i < source.length) {
    const ch = source[i]!;
    if (inBraces && (ch === ',' || ch === '}')) return { parts, end: i };
    if (ch === '\\' && i + 1 < source.length) {
      parts.push(literal(source.charCodeAt(i + 1)));
      i += 2;
      continue;
    }
    if (ch === '/' && !inBraces && i + 3 === source.length && source.endsWith('**')) {
      parts.push({ kind: 'tail' }); // `a/**`: `a`, or `a/` and anything
      break;
    }
    if (ch === '*') {
      let stars = 1;
      while (source[i + stars] === '*') stars += 1;
      const atSegmentStart = i === 0 || source[i - 1] === '/';
      const after = source[i + stars];
      if (stars === 2 && atSegmentStart && (after === undefined || after === '/')) {
        if (after === undefined) {
          parts.push({ kind: 'any' }); // `**` as the whole glob (`a/**` is read as a tail above)
          i += 2;
        } else {
          parts.push({ kind: 'dirs' });
          i += 3;
        }
        continue;
      }
      parts.push({ kind: 'star' });
      i += stars;
      continue;
    }
    if (ch === '?') {
      parts.push({ kind: 'char', test: notSlash });
      i += 1;
      continue;
    }
    if (ch === '[') {
      const set = parseClass(source, i);
      if (set) {
        parts.push({ kind: 'char', test: set.test });
        i = set.end;
        continue;
      }
    }
    if (ch === '{') {
      const alternation = parseBraces(source, i);
      if (alternation) {
        parts.push(alternation.part);
        i = alternation.end;
        continue;
      }
    }
    parts.push(literal(source.charCodeAt(i)));
    i += 1;
  }
  return { parts, end: source.length };
}

/** `{a,b,…}` with at least one top-level comma, or null (then `{` is a literal). */
function parseBraces(source: string, open: number): { part: Part; end: number } | null {
  const options: Part[][] = [];
  let i = open + 1;
  for (;;) {
    const parsed = parseSequence(source, i, true);
    options.push(parsed.parts);
    if (parsed.end >= source.length) return null;
    if (source[parsed.end] === '}') {
      if (options.length < 2) return null;
      return { part: { kind: 'alt', options }, end: parsed.end + 1 };
    }
    i = parsed.end + 1; // past the `,`
  }
}

/** `[…]` from `open`, or null when it is not closed (then `[` is a literal). */
function parseClass(source: string, open: number): { test: (code: number) => boolean; end: number } | null {
  let i = open + 1;
  const negated = source[i] === '!' || source[i] === '^';
  if (negated) i += 1;
  const ranges: [number, number][] = [];
  let first = true;
  while (i < source.length && (source[i] !== ']' || first)) {
    first = false;
    let from = source.charCodeAt(i);
    if (from === 0x5c && i + 1 < source.length) {
      i += 1;
      from = source.charCodeAt(i);
    }
    i += 1;
    let to = from;
    if (source[i] === '-' && i + 1 < source.length && source[i + 1] !== ']') {
      i += 1;
      to = source.charCodeAt(i);
      if (to === 0x5c && i + 1 < source.length) {
        i += 1;
        to = source.charCodeAt(i);
      }
      i += 1;
    }
    ranges.push([Math.min(from, to), Math.max(from, to)]);
  }
  if (i >= source.length) return null;
  const inSet = (code: number) => ranges.some(([from, to]) => code >= from && code <= to);
  return {
    test: negated ? (code) => code !== SLASH && !inSet(code) : (code) => code !== SLASH && inSet(code),
    end: i + 1,
  };
}

function literal(code: number): Part {
  return { kind: 'char', test: (c: number) => c === code, code };
}

/** Appends the instructions of a sequence of parts; each part's last instruction leads to the next. */
function emitSequence(parts: readonly Part[], program: Instruction[]): void {
  for (const part of parts) emitPart(part, program);
}

function emitPart(part: Part, program: Instruction[]): void {
  switch (part.kind) {
    case 'char':
      program.push({ op: 'char', test: part.test, next: program.length + 1, code: part.code });
      return;
    case 'star':
      emitRepeat(program, notSlash);
      return;
    case 'any':
      emitRepeat(program, anyChar);
      return;
    case 'dirs': {
      // (?:any* /)? : nothing, or any characters up to and including a `/`.
      const split = program.length;
      program.push({ op: 'split', first: split + 1, second: -1 });
      emitRepeat(program, anyChar);
      program.push({ op: 'char', test: (c) => c === SLASH, next: program.length + 1 });
      (program[split] as { second: number }).second = program.length;
      return;
    }
    case 'tail': {
      // (?:/ any*)? : nothing, or a `/` and anything after it.
      const split = program.length;
      program.push({ op: 'split', first: split + 1, second: -1 });
      program.push({ op: 'char', test: (c) => c === SLASH, next: program.length + 1 });
      emitRepeat(program, anyChar);
      (program[split] as { second: number }).second = program.length;
      return;
    }
    case 'alt': {
      const jumps: number[] = [];
      for (let index = 0; index < part.options.length; index += 1) {
        const last = index === part.options.length - 1;
        const split = program.length;
        if (!last) program.push({ op: 'split', first: split + 1, second: -1 });
        emitSequence(part.options[index]!, program);
        if (!last) {
          jumps.push(program.length);
          program.push({ op: 'jump', to: -1 });
          (program[split] as { second: number }).second = program.length;
        }
      }
      for (const jump of jumps) (program[jump] as { to: number }).to = program.length;
      return;
    }
  }
}

/** `test*`: a loop of one character, greedy. */
function emitRepeat(program: Instruction[], test: (code: number) => boolean): void {
  const loop = program.length;
  program.push({ op: 'split', first: loop + 1, second: loop + 2 });
  program.push({ op: 'char', test, next: loop });
}

/**
 * Visited (instruction, position) pairs: one byte each, the table kept for the next match up to
 * 4 Mi pairs (the largest glob against a 2,048-character path needs about 3.2 Mi), cleared over the
 * part a match uses, which is no more than the search may visit anyway. A larger match gets its own.
 */
const KEPT_TABLE_PAIRS = 4 << 20;
let kept = new Uint8Array(0);
/** The search's stack of (instruction, position) pairs still to try, kept likewise. */
const stack: number[] = [];

/** The program in flat arrays, built once per glob: the search below runs without objects. */
interface FlatProgram {
  /** 0 char, 1 split, 2 jump, 3 match. */
  op: Uint8Array;
  /** char: next; split: first; jump: target. */
  a: Int32Array;
  /** split: second. char: what passes: a code unit (≥ 0), -1 anything but `/`, -2 anything, -3 - k the k-th set. */
  b: Int32Array;
  sets: ((code: number) => boolean)[];
}

const flatPrograms = new WeakMap<readonly Instruction[], FlatProgram>();

function flatten(program: readonly Instruction[]): FlatProgram {
  const flat: FlatProgram = {
    op: new Uint8Array(program.length),
    a: new Int32Array(program.length),
    b: new Int32Array(program.length),
    sets: [],
  };
  program.forEach((instruction, pc) => {
    if (instruction.op === 'char') {
      flat.op[pc] = 0;
      flat.a[pc] = instruction.next;
      flat.b[pc] =
        instruction.test === notSlash
          ? -1
          : instruction.test === anyChar
            ? -2
            : (instruction.code ?? -3 - (flat.sets.push(instruction.test) - 1));
    } else if (instruction.op === 'split') {
      flat.op[pc] = 1;
      flat.a[pc] = instruction.first;
      flat.b[pc] = instruction.second;
    } else if (instruction.op === 'jump') {
      flat.op[pc] = 2;
      flat.a[pc] = instruction.to;
    } else flat.op[pc] = 3;
  });
  return flat;
}

/**
 * Whether the program matches the whole path: a depth-first search over (instruction, position)
 * that never enters a pair twice (a pair that failed once fails again: a glob has no captures),
 * so at most program.length × (path.length + 1) steps.
 */
function runProgram(program: readonly Instruction[], path: string): boolean {
  let flat = flatPrograms.get(program);
  if (!flat) {
    flat = flatten(program);
    flatPrograms.set(program, flat);
  }
  const { op, a, b, sets } = flat;
  const length = path.length;
  const width = length + 1;
  const size = program.length * width;
  let visited: Uint8Array;
  if (size > KEPT_TABLE_PAIRS) visited = new Uint8Array(size);
  else {
    if (kept.length < size)
      kept = new Uint8Array(Math.min(KEPT_TABLE_PAIRS, Math.max(size, kept.length * 2)));
    else kept.fill(0, 0, size);
    visited = kept;
  }
  let top = 0;
  stack[top++] = 0;
  stack[top++] = 0;
  while (top > 0) {
    let at = stack[--top]!;
    let pc = stack[--top]!;
    for (;;) {
      const slot = pc * width + at;
      if (visited[slot] === 1) break;
      visited[slot] = 1;
      const kind = op[pc]!;
      if (kind === 0) {
        if (at >= length) break;
        const code = path.charCodeAt(at);
        const want = b[pc]!;
        if (
          want >= 0 ? code !== want : want === -1 ? code === SLASH : want !== -2 && !sets[-3 - want]!(code)
        ) {
          break;
        }
        pc = a[pc]!;
        at += 1;
      } else if (kind === 1) {
        stack[top++] = b[pc]!;
        stack[top++] = at;
        pc = a[pc]!;
      } else if (kind === 2) {
        pc = a[pc]!;
      } else {
        if (at === length) {
          stack.length = Math.min(stack.length, 1 << 16); // a huge search's stack is not kept
          return true;
        }
        break;
      }
    }
  }
  stack.length = Math.min(stack.length, 1 << 16);
  return false;
}
