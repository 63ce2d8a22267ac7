import { countOf } from './count-of.js';

/** A command a lens above a line of URLs runs: what `vscode.Command` is made of, without `vscode`. */
export interface LensCommand {
  command: string;
  title: string;
  tooltip: string;
  arguments: unknown[];
}

/**
 * The lenses above a line with URLs: Extract, Crawl and Deep crawl, each with the line's URLs
 * (a deep crawl starts from the first). The lens offered Extract alone, and crawling a page listed
 * in a file meant selecting it and finding the command.
 *
 * @example
 * ```ts
 * urlLensCommands(['https://shop.example/p/lamp']).map((lens) => lens.title);
 * // ['Extract from this URL', 'Crawl', 'Deep crawl']
 * ```
 */
export function urlLensCommands(urls: readonly string[]): LensCommand[] {
  const list = urls.join('\n');
  const one = urls.length === 1;
  return [
    {
      command: 'webdata.extractFromUrl',
      title: one ? 'Extract from this URL' : `Extract from these ${urls.length} URLs`,
      tooltip: `Extract structured data from ${one ? 'this page' : countOf(urls.length, 'page')}:\n${list}`,
      arguments: [[...urls]],
    },
    {
      command: 'webdata.crawlUrls',
      title: one ? 'Crawl' : `Crawl these ${urls.length}`,
      tooltip: `Fetch ${one ? 'this page' : countOf(urls.length, 'page')} as Markdown, into the search collection:\n${list}`,
      arguments: [{ urls: [...urls] }],
    },
    {
      command: 'webdata.deepCrawl',
      title: one ? 'Deep crawl' : 'Deep crawl from the first',
      tooltip: `Crawl the site from ${urls[0]}, following its links`,
      arguments: [{ url: urls[0] }],
    },
  ];
}
