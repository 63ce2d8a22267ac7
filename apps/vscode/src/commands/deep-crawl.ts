import * as vscode from 'vscode';
import { startRun } from '../runs/start-run.js';
import type { Command } from '../services.js';
import { typedUrls } from '../text/find-urls.js';
import { urlAtCursor } from '../ui/pick-urls.js';
import { urlsTitle } from '../ui/urls-title.js';

const TITLE = 'Web Data: Deep crawl';

/** What Deep crawl from URL… can be given instead of asking. */
export interface DeepCrawlOptions {
  url?: string;
  maxDepth?: number;
  limit?: number;
}

/**
 * Deep crawl from URL…: crawls a site breadth-first from a start page (the
 * URL at the cursor is offered: see {@link urlAtCursor}), asking how deep and how
 * many pages at most.
 */
export const deepCrawl: Command = {
  id: 'webdata.deepCrawl',
  async run(services, arg?: unknown) {
    const options =
      typeof arg === 'object' && arg !== null && !(arg instanceof vscode.Uri)
        ? (arg as DeepCrawlOptions)
        : {};
    const typed =
      options.url ??
      (await vscode.window.showInputBox({
        title: TITLE,
        prompt: 'The page to start from; the crawl stays on its site',
        value: urlAtCursor() ?? '',
        placeHolder: 'https://docs.example.org/',
        ignoreFocusOut: true,
        validateInput: (value) =>
          typedUrls(value).length === 1
            ? undefined
            : 'One web address: https://docs.example.org/ (or docs.example.org)',
      }));
    const url =
      typed === undefined
        ? undefined
        : (typedUrls(typed)[0] ?? (isHttpUrl(typed.trim()) ? typed : undefined));
    if (!url) return undefined;
    // Named in the boxes that follow: a lens opens them with no address box first.
    const title = urlsTitle('Deep crawl from', [url.trim()]);
    const maxDepth =
      options.maxDepth ??
      (await askNumber(title, 'How many links deep (0 is the start page alone)?', 2, 0, 100));
    if (maxDepth === undefined) return undefined;
    const limit = options.limit ?? (await askNumber(title, 'At most how many pages?', 100, 1, 10_000));
    if (limit === undefined) return undefined;
    return startRun(
      services,
      { type: 'deep-crawl', url: url.trim(), max_depth: maxDepth, limit },
      `deep crawl of ${url.trim()} (depth ${maxDepth}, at most ${limit} pages)`,
    );
  },
};

async function askNumber(
  title: string,
  prompt: string,
  initial: number,
  min: number,
  max: number,
): Promise<number | undefined> {
  const typed = await vscode.window.showInputBox({
    title,
    prompt,
    value: String(initial),
    ignoreFocusOut: true,
    validateInput: (value) => {
      const n = Number(value);
      return Number.isInteger(n) && n >= min && n <= max ? undefined : `a whole number from ${min} to ${max}`;
    },
  });
  return typed === undefined ? undefined : Number(typed);
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
