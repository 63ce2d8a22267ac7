import type { QuickPickItem } from 'vscode';
import { stateAfter } from '../connection/connection-state.js';
import { countOf } from '../text/count-of.js';

/** What the search pick's box shows while empty: how to write a query, as the service reads it. */
export const SEARCH_PLACEHOLDER = 'Words to search for: "a phrase", +must have, -leave out; best hits first';

/** A collection as Search Collection… lists it. */
export interface CollectionEntry {
  name: string;
  document_count?: number | null;
}

/**
 * The rows of the "Which collection?" pick: the one searched last first
 * (marked so), as VS Code's pickers put what was used recently first, then
 * the others in the service's order. Searching again and pressing Enter
 * searched the first collection listed, not the one searched a moment ago.
 */
export function collectionPickItems(
  collections: readonly CollectionEntry[],
  lastSearched: string | undefined,
): QuickPickItem[] {
  const last = collections.find((collection) => collection.name === lastSearched);
  const ordered = last ? [last, ...collections.filter((collection) => collection !== last)] : collections;
  return ordered.map((collection) => {
    const count =
      typeof collection.document_count === 'number'
        ? countOf(collection.document_count, 'document')
        : undefined;
    const said = collection === last ? [count, 'searched last'] : [count];
    return { label: collection.name, description: said.filter(Boolean).join(' · ') || undefined };
  });
}

/**
 * The line shown in place of hits when the service found none for `query`:
 * says which collection, and, for a query whose every word is to be left out
 * (`-word`), that it needs a word to search for: such a query finds nothing
 * whatever the collection holds.
 */
export function noHitsItem(query: string, collection: string): QuickPickItem {
  const words = query.match(/-?"[^"]*"?|\S+/g) ?? [];
  const onlyLeftOut = words.length > 0 && words.every((word) => word.startsWith('-'));
  return onlyLeftOut
    ? {
        label: `Nothing to search for in '${query}'`,
        detail: 'Words after - are left out of the hits: add a word to search for.',
        alwaysShow: true,
      }
    : { label: `No page of “${collection}” matches '${query}'`, alwaysShow: true };
}

/**
 * The line shown in place of hits when the search failed, in the words the
 * Runs view uses for the same failure (no service answering, the key refused,
 * asked to wait), with what to do (Enter on it searches again); `undefined` for another error, which is
 * best shown as the service said it. `tries` counts the searches that failed in a row: from the second
 * on, the line says so, or Enter on it would seem to do nothing while the service is still away.
 */
export function searchFailedItem(error: unknown, baseUrl: string, tries = 1): QuickPickItem | undefined {
  const item = failedItemOf(error, baseUrl);
  if (item === undefined || tries < 2) return item;
  return { ...item, detail: `${tries} tries, the last just now. ${item.detail}` };
}

function failedItemOf(error: unknown, baseUrl: string): QuickPickItem | undefined {
  switch (stateAfter(error)) {
    case 'unreachable':
      return {
        label: `$(error) No Web Data service answers at ${baseUrl}`,
        detail: 'Enter searches again.',
        alwaysShow: true,
      };
    case 'unauthorized':
      return {
        label: `$(error) The Web Data service at ${baseUrl} refused the API key`,
        detail: 'Run Web Data: Set API Key… and search again.',
        alwaysShow: true,
      };
    case 'rateLimited':
      return {
        label: `$(error) The Web Data service at ${baseUrl} asks to wait`,
        detail: 'Too many requests came from this address: Enter searches again.',
        alwaysShow: true,
      };
    default:
      return undefined;
  }
}
