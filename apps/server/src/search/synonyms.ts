import { lightStem } from './light-stem.js';

/**
 * Groups of words that people and documentation use for the same thing:
 * everyday verbs a question is typed with beside the words manuals write
 * ("find" / "search", "delete" / "remove"), and the short names programming
 * documentation uses for common things ("directory" / "dir", "configuration" /
 * "config"). General English and software vocabulary, not any one manual's
 * terms: a word of a question also finds pages that say it another way.
 */
const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['search', 'find', 'grep', 'lookup'],
  ['delete', 'remove', 'erase'],
  ['rename', 'move'],
  ['undo', 'revert', 'restore'],
  ['show', 'display', 'print', 'view'],
  ['create', 'make', 'new'],
  ['start', 'begin', 'launch'],
  ['stop', 'terminate', 'kill', 'quit'],
  ['change', 'modify', 'edit', 'alter'],
  ['copy', 'duplicate', 'clone'],
  ['combine', 'merge', 'join', 'concatenate'],
  ['error', 'exception'],
  ['check', 'verify', 'validate'],
  ['configuration', 'config', 'settings', 'setting'],
  ['download', 'fetch', 'retrieve'],
  ['compare', 'diff', 'difference'],
  ['save', 'store', 'persist'],
  ['directory', 'folder', 'dir'],
  ['string', 'str', 'text'],
  ['dictionary', 'dict', 'mapping'],
  ['environment', 'env', 'environ'],
  ['debug', 'debugger', 'debugging'],
];

/** Each word's light stems (its inflections: "delete", "deletes", "deleting", "deleted") → its group, itself left out. */
const OTHERS_OF_STEM: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, readonly string[]>();
  for (const group of SYNONYM_GROUPS) {
    for (const word of group) {
      const base = word.replace(/e$/, '');
      const others = group.filter((other) => other !== word);
      for (const form of [word, `${word}s`, `${base}ing`, `${base}ed`]) map.set(lightStem(form), others);
    }
  }
  return map;
})();

/**
 * The other words of `word`'s synonym group ("deleting" finds the group of
 * "delete"); empty when it has none.
 *
 * @example
 * ```ts
 * synonymsOf('deleting'); // ['remove', 'erase']
 * ```
 */
export function synonymsOf(word: string): string[] {
  return [...(OTHERS_OF_STEM.get(lightStem(word)) ?? [])];
}
