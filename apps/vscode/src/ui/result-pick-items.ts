import type { QuickPickItem } from 'vscode';
import type { Result } from '../runs/run-types.js';
import { countOf } from '../text/count-of.js';
import { quickPickMayMatch } from '../text/quick-pick-filter.js';
import { shortUrl } from '../tree/describe-run.js';

/** A row of Go to Result…'s pick: a page to open, or (no result) a line saying why there is none. */
export type ResultItem = QuickPickItem & { result?: Result };

/** The rows for a run's pages: its title (or address) and its address. */
export function resultItems(results: readonly Result[]): ResultItem[] {
  return results.map((result) => ({
    label: result.title?.trim() || shortUrl(result.url ?? result.id),
    description: result.url ? shortUrl(result.url) : undefined,
    result,
  }));
}

/**
 * What the pick shows for `value` typed: the pages (VS Code's filter hides
 * those that do not match), and a line saying so where it would hide them all
 * (as VS Code's own pickers say "No matching results"), or where the run has
 * no page to open: an empty list alone says nothing. The line is shown
 * whatever is typed (`alwaysShow`) and opens nothing.
 */
export function resultPickItems(pages: readonly ResultItem[], value: string): ResultItem[] {
  if (pages.length === 0) return [{ label: 'This run has no page to open', alwaysShow: true }];
  const query = value.trim();
  const anyShown = pages.some(
    (page) => quickPickMayMatch(query, page.label) || quickPickMayMatch(query, page.description ?? ''),
  );
  if (anyShown) return [...pages];
  return [
    ...pages,
    {
      label: `No page of this run matches '${query}'`,
      detail: `Its ${countOf(pages.length, 'page')} are found by part of a title or address.`,
      alwaysShow: true,
    },
  ];
}
