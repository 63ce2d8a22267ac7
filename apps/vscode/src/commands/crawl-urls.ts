import * as vscode from 'vscode';
import { startRun } from '../runs/start-run.js';
import type { Command } from '../services.js';
import { countOf } from '../text/count-of.js';
import { confirmUrls, urlsInActiveEditor } from '../ui/pick-urls.js';
import { urlsTitle } from '../ui/urls-title.js';

const TITLE = 'Web Data: Crawl URLs';

/** What Crawl URLs can be given instead of asking: the URLs, and whether to take screenshots. */
export interface CrawlOptions {
  urls?: string[];
  screenshot?: boolean;
}

/**
 * Crawl URLs…: fetches the pages of the selection's (or the file's) URLs, as
 * Markdown, with screenshots if asked, into the default search collection.
 */
export const crawlUrls: Command = {
  id: 'webdata.crawlUrls',
  async run(services, arg?: unknown) {
    const options =
      typeof arg === 'object' && arg !== null && !(arg instanceof vscode.Uri) ? (arg as CrawlOptions) : {};
    const urls = options.urls ?? (await confirmUrls(urlsInActiveEditor(), TITLE));
    if (!urls || urls.length === 0) return undefined;
    let screenshot = options.screenshot;
    if (screenshot === undefined) {
      const choice = await vscode.window.showQuickPick(
        [
          { label: 'Content only', description: 'Markdown of each page', screenshot: false },
          {
            label: 'Content and screenshots',
            description: 'also a full-page PNG of each page',
            screenshot: true,
          },
        ],
        { title: urlsTitle('Crawl', urls), placeHolder: 'What to keep of each page?', ignoreFocusOut: true },
      );
      if (!choice) return undefined;
      screenshot = choice.screenshot;
    }
    const what = `crawl of ${countOf(urls.length, 'URL')}`;
    return startRun(
      services,
      { type: 'crawl', urls, limit: urls.length, formats: ['markdown'], screenshot },
      what,
    );
  },
};
