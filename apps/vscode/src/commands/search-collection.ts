import type { SearchHit, WebDataClient } from '@webdata/core';
import { catchError, debounceTime, EMPTY, finalize, map, of, Subject, switchMap, tap } from 'rxjs';
import * as vscode from 'vscode';
import { stateAfter } from '../connection/connection-state.js';
import { snippetToText } from '../documents/search-hit-document.js';
import type { Command, Services } from '../services.js';
import { describeError } from '../ui/log.js';
import {
  collectionPickItems,
  noHitsItem,
  SEARCH_PLACEHOLDER,
  searchFailedItem,
} from '../ui/search-pick-items.js';
import { showError } from '../ui/show-error.js';

/** Where the collection searched last is remembered (global state): the pick lists it first. */
const LAST_COLLECTION = 'webdata.search.lastCollection';

/** Typing pauses this long before a search is sent. */
export const SEARCH_DEBOUNCE_MS = 250;

/** A hit to open, or a line in place of hits: none found, or the search failed (Enter searches again). */
type HitItem = vscode.QuickPickItem & { hit?: SearchHit; failed?: true };

/**
 * Search Collection…: a quick pick whose ranked hits follow the typing
 * (debounced; a new query cancels the request of the previous one). The
 * chosen hit's whole document opens in a read-only tab. With several
 * collections, asks which first; with none, says how to make one.
 * A query may be passed to start with.
 */
export const searchCollection: Command = {
  id: 'webdata.searchCollection',
  async run(services, initialQuery?: unknown) {
    let client: WebDataClient;
    let collection: string | null | undefined;
    try {
      client = services.connection.client();
      collection = await pickCollection(client, services.context.globalState.get<string>(LAST_COLLECTION));
    } catch (error) {
      void showError(services.log, 'Could not list the collections', error);
      return undefined;
    }
    if (collection === null) {
      // The service answers 404 to a search of a collection nothing was indexed into.
      const crawl = 'Crawl URLs…';
      const choice = await vscode.window.showInformationMessage(
        'Nothing is indexed yet: crawled pages are what Search finds. Crawl the URLs of a file first.',
        crawl,
      );
      if (choice === crawl) await vscode.commands.executeCommand('webdata.crawlUrls');
      return undefined;
    }
    if (collection === undefined) return undefined;
    void services.context.globalState.update(LAST_COLLECTION, collection);
    return searchIn(services, client, collection, typeof initialQuery === 'string' ? initialQuery : '');
  },
};

/**
 * The collection to search: the only one, or the one picked (the one searched last listed first);
 * null when there is none, undefined when the pick was dismissed.
 */
async function pickCollection(
  client: WebDataClient,
  lastSearched: string | undefined,
): Promise<string | null | undefined> {
  const { data } = await client.collections.list({ limit: 200 });
  if (data.length === 0) return null;
  if (data.length === 1) return data[0]!.name;
  const picked = await vscode.window.showQuickPick(collectionPickItems(data, lastSearched), {
    title: 'Web Data: Search',
    placeHolder: 'Which collection?',
  });
  return picked?.label;
}

function searchIn(services: Services, client: WebDataClient, collection: string, initial: string) {
  return new Promise<vscode.TextEditor | undefined>((resolve) => {
    const pick = vscode.window.createQuickPick<HitItem>();
    pick.title = `Web Data: Search “${collection}”`;
    pick.placeholder = SEARCH_PLACEHOLDER;
    // The service ranks the hits: the quick pick must not filter or re-sort them by its own matching.
    pick.matchOnDescription = false;
    pick.matchOnDetail = false;
    const queries = new Subject<string>();
    /** Searches that failed in a row (the failed line counts them, so Enter on it shows it tried). */
    let failures = 0;
    const subscription = queries
      .pipe(
        map((query) => query.trim()),
        debounceTime(SEARCH_DEBOUNCE_MS),
        switchMap((query) => {
          if (query === '') return of<HitItem[]>([]);
          pick.busy = true;
          // switchMap unsubscribes from the previous search, which aborts its request.
          return client.search$({ query, collection, limit: 20 }).pipe(
            map((answer) => {
              failures = 0;
              services.connection.reportSuccess();
              return answer.data.length > 0 ? answer.data.map(toItem) : [noHitsItem(query, collection)];
            }),
            catchError((error: unknown) => {
              services.log.error(`search for "${query}" failed`, error);
              // The view and the status bar learn of it too (the service went away, the key was refused);
              // another error (such as a collection deleted meanwhile) says nothing of the connection.
              if (stateAfter(error) !== 'error') services.connection.reportFailure(error);
              failures += 1;
              const failed = searchFailedItem(error, services.connection.baseUrl, failures) ?? {
                label: `$(error) ${describeError(error)}`,
                alwaysShow: true,
              };
              return of<HitItem[]>([{ ...failed, failed: true }]);
            }),
            finalize(() => {
              pick.busy = false;
            }),
          );
        }),
        tap((items) => {
          pick.items = items;
        }),
        catchError(() => EMPTY),
      )
      .subscribe();
    pick.onDidChangeValue((value) => queries.next(value));
    /** A hit was chosen: the pick's hiding does not end the command, the hit's tab opening does. */
    let opening = false;
    pick.onDidAccept(async () => {
      const [selected] = pick.selectedItems;
      if (selected?.failed) queries.next(pick.value);
      const hit = selected?.hit;
      if (!hit) return;
      const query = pick.value;
      opening = true;
      pick.hide();
      try {
        resolve(await services.searchHits.open(hit, query, collection));
      } catch (error) {
        void showError(services.log, 'Could not open the search hit', error);
        resolve(undefined);
      }
    });
    pick.onDidHide(() => {
      subscription.unsubscribe();
      pick.dispose();
      // Hiding is reported after pick.hide() returns, before the chosen hit's document is read: resolving
      // here ended the command with nothing while the hit was still opening.
      if (!opening) resolve(undefined);
    });
    pick.value = initial;
    pick.show();
    if (initial) queries.next(initial);
  });
}

function toItem(hit: SearchHit): HitItem {
  return {
    label: hit.title?.trim() || hit.url,
    description: hit.url,
    detail: hit.snippet ? snippetToText(hit.snippet) : undefined,
    alwaysShow: true,
    hit,
  };
}
