/**
 * Whether VS Code's quick pick may show an item whose label (or description)
 * is `text` when `query` is typed: `false` only when its filter surely hides
 * it. Its filter (fuzzy mode, the default) takes a `*` wildcard pattern, a
 * prefix, a contiguous substring, or letters at word starts ("camel case",
 * `orc` for "Oak Reading Chair"), all ignoring case; this tells no match from
 * a possible one without copying its code, erring on "may match".
 *
 * A quick pick that hides every item shows an empty list and says nothing:
 * this is how a picker knows to say why.
 *
 * @example
 * ```ts
 * quickPickMayMatch('chair', 'Oak Reading Chair'); // true
 * quickPickMayMatch('orc', 'Oak Reading Chair'); // true
 * quickPickMayMatch('sofa', 'Oak Reading Chair'); // false
 * ```
 */
export function quickPickMayMatch(query: string, text: string): boolean {
  const wanted = query.trim().toLowerCase();
  if (wanted === '') return true;
  const lower = text.toLowerCase();
  if (lower.includes(wanted)) return true;
  if (wanted.includes('*')) {
    const pattern = wanted
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    if (new RegExp(pattern).test(lower)) return true;
  }
  return matchesAtWordStarts(wanted, text, lower);
}

/**
 * Whether the query's letters are found in order, each either right after
 * the one before or at a word start (the text's start, an upper-case letter,
 * a digit, or after a character that is no letter or digit).
 */
function matchesAtWordStarts(query: string, text: string, lower: string): boolean {
  const isWordStart = (at: number) =>
    at === 0 || /[\p{Lu}\p{N}]/u.test(text[at]!) || !/[\p{L}\p{N}]/u.test(text[at - 1]!);
  // Whether query[q…] matches from text[t…]; remembered, as labels of repeated letters would take exponential time.
  const known = new Map<number, boolean>();
  const from = (q: number, t: number): boolean => {
    if (q === query.length) return true;
    const key = q * (lower.length + 1) + t;
    let found = known.get(key);
    if (found !== undefined) return found;
    found = t < lower.length && lower[t] === query[q] && from(q + 1, t + 1);
    for (let next = t + 1; !found && next < lower.length; next += 1) {
      found = isWordStart(next) && lower[next] === query[q] && from(q + 1, next + 1);
    }
    known.set(key, found);
    return found;
  };
  for (let start = 0; start < lower.length; start += 1) {
    if (isWordStart(start) && lower[start] === query[0] && from(1, start + 1)) return true;
  }
  return false;
}
