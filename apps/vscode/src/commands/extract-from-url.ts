import type { Command } from '../services.js';
import { extract } from './extract-from-urls.js';

/** Extract from This URL… (the CodeLens above a URL): Extract from URLs… with that URL, already confirmed. */
export const extractFromUrl: Command = {
  id: 'webdata.extractFromUrl',
  run(services, urls?: unknown) {
    const list = (Array.isArray(urls) ? urls : [urls]).filter(
      (url): url is string => typeof url === 'string',
    );
    if (list.length === 0) return undefined;
    return extract(services, { urls: list });
  },
};
