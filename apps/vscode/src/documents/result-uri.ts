/** The URI scheme of result documents. */
export const RESULT_SCHEME = 'webdata-result';

/** Formats a result document can show, and the file extension that picks its language. */
export const RESULT_FORMATS = {
  markdown: 'md',
  json: 'json',
  html: 'html',
  text: 'txt',
  links: 'txt',
} as const;
export type ResultFormat = keyof typeof RESULT_FORMATS;

/** What a result document shows: one result of a run, in one format, under a title. */
export interface ResultRef {
  runId: string;
  resultId: string;
  format: ResultFormat;
  /** Shown as the tab's title; not needed to fetch the content. */
  title: string;
}

/** The parts of a URI, as `vscode.Uri.from` takes them (this module needs no `vscode`). */
export interface UriParts {
  scheme: string;
  path: string;
  query: string;
}

const MAX_TITLE = 80;

/**
 * The URI of a result document: `webdata-result:/<runId>/<resultId>/<title>.<ext>?format=<format>`.
 * The title is the last path segment, so VS Code shows it as the tab's name and
 * picks the language from its extension; the same result in the same format
 * always gets the same URI, so reopening it focuses the tab already open.
 *
 * @example
 * ```ts
 * toResultUri({ runId: 'run_1', resultId: 'res_2', format: 'json', title: 'Brass Desk Lamp' });
 * // { scheme: 'webdata-result', path: '/run_1/res_2/Brass Desk Lamp.json', query: 'format=json' }
 * ```
 */
export function toResultUri(ref: ResultRef): UriParts {
  const name = `${safeTitle(ref.title) || ref.resultId}.${RESULT_FORMATS[ref.format]}`;
  return {
    scheme: RESULT_SCHEME,
    path: `/${encodeURIComponent(ref.runId)}/${encodeURIComponent(ref.resultId)}/${name}`,
    query: `format=${ref.format}`,
  };
}

/**
 * Reads a result document's URI back; `undefined` when it is not one.
 *
 * @example
 * ```ts
 * fromResultUri({ scheme: 'webdata-result', path: '/run_1/res_2/Lamp.md', query: 'format=markdown' });
 * // { runId: 'run_1', resultId: 'res_2', format: 'markdown', title: 'Lamp' }
 * ```
 */
export function fromResultUri(uri: UriParts): ResultRef | undefined {
  if (uri.scheme !== RESULT_SCHEME) return undefined;
  const match = /^\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri.path);
  const format = new URLSearchParams(uri.query).get('format');
  if (!match || !format || !Object.hasOwn(RESULT_FORMATS, format)) return undefined;
  const [, runId, resultId, name] = match as unknown as [string, string, string, string];
  try {
    return {
      runId: decodeURIComponent(runId),
      resultId: decodeURIComponent(resultId),
      format: format as ResultFormat,
      title: name.replace(/\.[a-z]+$/, ''),
    };
  } catch {
    return undefined;
  }
}

/**
 * A page title fit for a tab and a path segment: no slashes or control
 * characters, spaces collapsed, at most 80 characters.
 *
 * @example
 * ```ts
 * safeTitle('  Lamps / Desks \n| Shop  '); // 'Lamps - Desks | Shop'
 * ```
 */
export function safeTitle(title: string): string {
  const clean = title
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/[/\\]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > MAX_TITLE ? `${clean.slice(0, MAX_TITLE - 1).trimEnd()}…` : clean;
}
