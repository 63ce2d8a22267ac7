/** Letters and digits runs: the words of a title, a heading or a URL path. */
export const WORD = /[\p{L}\p{N}]+/gu;

/**
 * A light English stemmer for comparing a query's words with a page's title,
 * headings and URL path in the re-ranking step (the index itself stems with
 * Porter). It only strips inflections (plural `-s`/`-es`/`-ies`, `-ing`,
 * `-ed`), so both sides reduce to the same form more often than not
 * ("sorting" / "sorted" / "sorts" → "sort") without over-merging words.
 *
 * @example
 * ```ts
 * lightStem('dictionaries'); // 'dictionary'
 * lightStem('running'); // 'run'
 * ```
 */
export function lightStem(word: string): string {
  let w = word.toLowerCase();
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith("'s")) w = w.slice(0, -2);
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(sses|xes|ches|shes|zes)$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 5) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && w.length > 4) w = undouble(w.slice(0, -2));
  return w;
}

/** "runn" → "run", "stopp" → "stop": the doubled consonant an `-ing`/`-ed` adds. */
function undouble(stem: string): string {
  return /([^aeiouslz])\1$/.test(stem) ? stem.slice(0, -1) : stem;
}

/** The light stems of every word of a text (see {@link lightStem}). */
export function stemsOf(text: string): Set<string> {
  const stems = new Set<string>();
  for (const word of text.match(WORD) ?? []) stems.add(lightStem(word));
  return stems;
}
