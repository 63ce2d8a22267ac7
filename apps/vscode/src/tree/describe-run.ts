import { isTerminalStatus } from '@webdata/core';
import { type FailedPages, retryHelps } from '../runs/retry-helps.js';
import { progressCount } from '../runs/run-progress.js';
import { requestOfRun } from '../runs/run-request.js';
import type { Result, Run } from '../runs/run-types.js';
import { countOf } from '../text/count-of.js';

/** A codicon and the theme colour to draw it in. */
export interface Icon {
  id: string;
  color?: string | undefined;
}

const STATUS_ICONS: Record<string, Icon> = {
  completed: { id: 'pass', color: 'testing.iconPassed' },
  incomplete: { id: 'warning', color: 'list.warningForeground' },
  failed: { id: 'error', color: 'testing.iconFailed' },
  cancelled: { id: 'circle-slash', color: 'disabledForeground' },
};

/** Queued, running and any status this client does not know yet spin: the run is still at work. */
const IN_FLIGHT_ICON: Icon = { id: 'loading~spin' };

/** How each run type is named in the view. */
export const TYPE_LABELS: Record<string, string> = {
  extract: 'Extract',
  crawl: 'Crawl',
  'deep-crawl': 'Deep crawl',
};

/**
 * A run's icon: a spinner while in flight, then its outcome.
 *
 * @example
 * ```ts
 * runIcon({ status: 'running' } as Run); // { id: 'loading~spin' }
 * ```
 */
export function runIcon(run: Pick<Run, 'status'>): Icon {
  return isTerminalStatus(run.status) ? STATUS_ICONS[run.status]! : IN_FLIGHT_ICON;
}

/**
 * What a run is and where it went, in full: its type and its first URL
 * (`Extract · shop.example/p/lamp +2`), for titles and messages.
 *
 * @example
 * ```ts
 * runLabel({ type: 'crawl', urls: ['https://a.example/x', 'https://b.example/'] } as Run); // 'Crawl · a.example/x +1'
 * ```
 */
export function runLabel(run: Pick<Run, 'type' | 'urls' | 'params'>): string {
  const type = TYPE_LABELS[run.type] ?? run.type;
  const start = startUrl(run);
  if (!start) return type;
  return `${type} · ${shortUrl(start)}${moreUrls(run)}`;
}

/**
 * A run's row label in the Runs view: what it is and where on its site it went
 * (`Deep crawl /library/`, `Extract /p/lamp +2`), the host when it started at a site's root
 * (`Crawl docs.example`). Runs of one host told apart by kind and path at the default sidebar width
 * (some 30 characters of label and description together): a label of the kind alone
 * (`Deep crawl`) and the place last in the description drew every deep crawl of a site alike.
 * A long path keeps its last segments (`Crawl …/library/functions.html`); the tooltip has it whole.
 *
 * @example
 * ```ts
 * runRowLabel({ type: 'deep-crawl', urls: [], params: { url: 'https://docs.example/library/' } } as Run);
 * // 'Deep crawl /library'
 * ```
 */
export function runRowLabel(run: Pick<Run, 'type' | 'urls' | 'params'>): string {
  const type = TYPE_LABELS[run.type] ?? run.type;
  const start = startUrl(run);
  if (!start) return type;
  return `${type} ${placeOnSite(start)}${moreUrls(run)}`;
}

/** Characters of a path a row label keeps. */
const PATH_CHARACTERS = 24;

/**
 * Where on its site a URL goes: its path and query without the trailing slash, its last segments
 * when longer than {@link PATH_CHARACTERS}; its host when it has no path.
 */
function placeOnSite(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return shortUrl(url);
  }
  const path = `${parsed.pathname}${parsed.search}`.replace(/\/$/, '');
  if (path === '') return parsed.host.replace(/^www\./i, '');
  if (path.length <= PATH_CHARACTERS) return path;
  const segments = path.split('/');
  let kept = segments.pop() ?? '';
  while (segments.length > 0 && `…/${segments.at(-1)}/${kept}`.length <= PATH_CHARACTERS) {
    kept = `${segments.pop()}/${kept}`;
  }
  const tail = `…/${kept}`;
  return tail.length <= PATH_CHARACTERS ? tail : `${tail.slice(0, PATH_CHARACTERS - 1)}…`;
}

/** The host of a URL, without `www.`; `undefined` when it is not a URL. */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host.replace(/^www\./i, '');
  } catch {
    return undefined;
  }
}

/** The run's first URL: the first of `urls`, else a deep crawl's start (`params.url`). */
function startUrl(run: Pick<Run, 'urls' | 'params'>): string | undefined {
  return run.urls[0] ?? (typeof run.params?.url === 'string' ? run.params.url : undefined);
}

/** ` +2` when the run has 3 URLs. */
function moreUrls(run: Pick<Run, 'urls'>): string {
  return run.urls.length > 1 ? ` +${run.urls.length - 1}` : '';
}

/**
 * What follows a run's row label ({@link runRowLabel}, its kind and path): in flight, how far it is
 * (`12 of ~40`, pages done of pages known) then how long ago it was created; once ended, how long
 * ago first (what tells runs of one kind and path apart), then `succeeded/total`; last the host
 * (cut first when the view is narrow; the tooltip has every URL).
 *
 * @example
 * ```ts
 * runDescription({ status: 'running', type: 'crawl', created_at: '2024-05-01T10:00:00Z',
 *   stats: { succeeded: 2, failed: 1, total: 5 }, urls: ['https://a.example/docs/', 'https://a.example/faq'],
 *   params: {} } as Run, Date.parse('2024-05-01T10:03:00Z')); // '3 of 5 · 3 min ago · a.example'
 * ```
 */
export function runDescription(
  run: Pick<Run, 'stats' | 'created_at' | 'status' | 'type' | 'urls' | 'params'>,
  now: number,
): string {
  const parts: string[] = [];
  const time = relativeTime(run.created_at, now);
  if (isTerminalStatus(run.status)) {
    parts.push(time);
    if (run.stats?.total !== undefined) parts.push(`${run.stats.succeeded ?? 0}/${run.stats.total}`);
  } else {
    const progress = progressCount(run);
    if (progress) parts.push(progress);
    parts.push(time);
  }
  const start = startUrl(run);
  const host = start ? hostOf(start) : undefined;
  // A run at a site's root has its host in the label already.
  if (start && host && placeOnSite(start) !== host) parts.push(host);
  return parts.join(' · ');
}

/**
 * A run's tooltip: status, id, what was asked, times (and how long it took),
 * counts, error and its first URLs.
 *
 * @example
 * ```ts
 * runTooltip(run, Date.now()).split('\n')[0]; // 'Extract · shop.example/p/lamp · completed'
 * ```
 */
export function runTooltip(run: Run, now: number): string {
  const lines = [`${runLabel(run)} · ${run.status}`, run.id];
  const asked = runAsked(run.params);
  if (asked) lines.push(`asked: ${asked}`);
  lines.push(`created ${relativeTime(run.created_at, now)} (${run.created_at})`);
  if (run.finished_at) {
    const took = run.started_at ? duration(run.started_at, run.finished_at) : undefined;
    lines.push(`finished ${run.finished_at}${took ? `, took ${took}` : ''}`);
  }
  const stats = run.stats;
  if (stats?.total !== undefined) {
    const counts = ['succeeded', 'failed', 'running', 'queued', 'cancelled']
      .filter((key) => (stats[key] ?? 0) > 0)
      .map((key) => `${stats[key]} ${key}`);
    lines.push(`${stats.total} pages${counts.length > 0 ? `: ${counts.join(', ')}` : ''}`);
  }
  if (run.error) lines.push(`error: ${run.error.message ?? run.error.code ?? 'unknown'}`);
  for (const url of run.urls.slice(0, 5)) lines.push(url);
  if (run.urls.length > 5) lines.push(`… and ${run.urls.length - 5} more`);
  return lines.join('\n');
}

/**
 * What a run was asked to do, from the request it keeps (`params`): the
 * query, the schema's fields, depth and page limit, formats, screenshots,
 * collection. Fields this client does not know are left out; `''` when none.
 *
 * @example
 * ```ts
 * runAsked({ max_depth: 1, limit: 30, formats: ['markdown'], screenshot: true });
 * // 'depth 1, at most 30 pages, as markdown, screenshots'
 * ```
 */
export function runAsked(params: Record<string, unknown> | null | undefined): string {
  if (!params) return '';
  const parts: string[] = [];
  if (typeof params.query === 'string' && params.query.trim()) parts.push(`"${params.query.trim()}"`);
  const schema = params.schema as { properties?: unknown } | undefined;
  if (schema && typeof schema === 'object') {
    const fields =
      schema.properties && typeof schema.properties === 'object' ? Object.keys(schema.properties) : [];
    parts.push(fields.length > 0 ? `fields ${fields.join(', ')}` : 'a schema');
  }
  if (typeof params.max_depth === 'number') parts.push(`depth ${params.max_depth}`);
  if (typeof params.limit === 'number') parts.push(`at most ${countOf(params.limit, 'page')}`);
  if (Array.isArray(params.formats) && params.formats.length > 0)
    parts.push(`as ${params.formats.join(', ')}`);
  if (params.screenshot === true) parts.push('screenshots');
  if (typeof params.collection === 'string') parts.push(`into collection ${params.collection}`);
  return parts.join(', ');
}

/**
 * How long from `start` to `end` (ISO times): `850 ms`, `12.4 s`, `3 min 5 s`, `2 h 4 min`;
 * `undefined` when either is not a time or `end` is before `start`.
 *
 * @example
 * ```ts
 * duration('2024-05-01T10:00:00.000Z', '2024-05-01T10:03:05.000Z'); // '3 min 5 s'
 * ```
 */
export function duration(start: string, end: string): string | undefined {
  const ms = Date.parse(end) - Date.parse(start);
  if (!Number.isFinite(ms) || ms < 0) return undefined;
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1_000);
  if (seconds < 3_600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3_600)} h ${Math.floor((seconds % 3_600) / 60)} min`;
}

/**
 * Flags that menus match in `viewItem`: `run`, then `cancelable` while in
 * flight, `retryable` once it ended without full success where retrying can help (pages were
 * cancelled, or a failed page's error may pass: {@link retryHelps}, from `failedPages`), `rerunnable` once
 * it ended when its request can be rebuilt (Run Again), `deletable`,
 * `hasResults` when some page succeeded.
 *
 * @example
 * ```ts
 * runContextValue({ status: 'incomplete', type: 'crawl', urls: ['https://a.example/'], params: {},
 *   stats: { total: 2, succeeded: 1, failed: 1, cancelled: 0 } } as Run, { results: [{ error: { code: 'timeout' } }], complete: true });
 * // 'run retryable rerunnable deletable hasResults'
 * ```
 */
export function runContextValue(
  run: Pick<Run, 'status' | 'stats' | 'type' | 'urls' | 'params'>,
  failedPages?: FailedPages,
): string {
  const flags = ['run'];
  if (!isTerminalStatus(run.status)) flags.push('cancelable');
  if (retryHelps(run, failedPages)) flags.push('retryable');
  if (isTerminalStatus(run.status) && requestOfRun(run)) flags.push('rerunnable');
  flags.push('deletable');
  if ((run.stats?.succeeded ?? 0) > 0) flags.push('hasResults');
  return flags.join(' ');
}

/**
 * A result's label: its page title, less what the titles of its run's pages share (`shared`: the
 * site's name), else its URL.
 *
 * @example
 * ```ts
 * resultLabel({ id: 'res_1', title: null, url: 'https://a.example/x' }); // 'a.example/x'
 * ```
 */
export function resultLabel(result: Result, shared: SharedTitleParts = NO_SHARED_PARTS): string {
  const title = result.title?.trim();
  if (title) return ownPart(title, shared);
  return result.url ? shortUrl(result.url) : result.id;
}

/** What the titles of a run's pages all start or end with: the site's name and its separator. */
export interface SharedTitleParts {
  prefix?: string | undefined;
  suffix?: string | undefined;
}

const NO_SHARED_PARTS: SharedTitleParts = {};

/** Where a page title's site name is set apart: ` | `, ` - `, ` – `, ` — `, ` · `, ` :: `, ` » `. */
const TITLE_SEPARATOR = /\s+(?:\||-|–|—|·|::|»)\s+/g;

/**
 * What the titles of a run's pages all start or end with, at a separator: the site's name
 * (`Lamp | Acme Shop`, `Kettle | Acme Shop`: ` | Acme Shop`). Rows of one site read alike at the
 * default sidebar width (`Acme Shop | Brass De…`, `Acme Shop | Enamel…`) and had the page's own
 * title cut off; the row keeps the page's part ({@link resultLabel}), the tooltip the whole title.
 * Nothing is shared by fewer than two titles.
 *
 * @example
 * ```ts
 * sharedTitleParts(['Lamp — Acme Shop', 'Kettle — Acme Shop']); // { suffix: ' — Acme Shop' }
 * sharedTitleParts(['Acme | Lamp', 'Acme | Kettle', 'About']); // {}
 * ```
 */
export function sharedTitleParts(titles: readonly (string | null | undefined)[]): SharedTitleParts {
  const given = titles.map((title) => title?.trim()).filter((title): title is string => Boolean(title));
  if (given.length < 2) return NO_SHARED_PARTS;
  const prefixOf = (title: string) => {
    const match = new RegExp(TITLE_SEPARATOR.source).exec(title);
    return match ? title.slice(0, match.index + match[0].length) : undefined;
  };
  const suffixOf = (title: string) => {
    const matches = [...title.matchAll(TITLE_SEPARATOR)];
    const last = matches.at(-1);
    return last?.index !== undefined ? title.slice(last.index) : undefined;
  };
  const same = (parts: (string | undefined)[]) =>
    parts.every((part) => part !== undefined && part === parts[0]) ? parts[0] : undefined;
  const prefix = same(given.map(prefixOf));
  const suffix = same(given.map(suffixOf));
  // A title that is all shared parts keeps one of them.
  if (prefix && suffix && given.some((title) => title.length <= prefix.length + suffix.length))
    return { suffix };
  return { prefix, suffix };
}

/** A page title without what its run's other titles share ({@link sharedTitleParts}); whole when nothing is left. */
function ownPart(title: string, shared: SharedTitleParts): string {
  let own = title;
  if (shared.prefix && own.startsWith(shared.prefix)) own = own.slice(shared.prefix.length);
  if (shared.suffix && own.endsWith(shared.suffix)) own = own.slice(0, own.length - shared.suffix.length);
  return own.trim() || title;
}

/**
 * What follows a result's label: the URL when the label is a title, and the error of a failed one.
 *
 * @example
 * ```ts
 * resultDescription({ id: 'r', status: 'failed', url: 'https://a.example/', error: { code: 'fetch_failed' } }); // 'fetch_failed · a.example'
 * ```
 */
export function resultDescription(result: Result): string {
  const parts: string[] = [];
  if (result.status === 'failed') parts.push(result.error?.code ?? 'failed');
  if (result.url && result.title?.trim()) parts.push(shortUrl(result.url));
  else if (result.url && result.status === 'failed') parts.push(shortUrl(result.url));
  return parts.join(' · ');
}

/**
 * Why a failed result failed, in one line for a message: its page, the
 * service's error message, and its code. The line names the page first, so
 * the message's own "from <the page's URL>" is left out (a different URL,
 * where a redirect led, stays).
 *
 * @example
 * ```ts
 * resultFailure({ id: 'r', status: 'failed', url: 'https://a.example/x', error: { code: 'http_error', message: 'HTTP 404 from https://a.example/x' } });
 * // 'a.example/x failed: HTTP 404 (http_error)'
 * ```
 */
export function resultFailure(result: Result): string {
  const page = result.url ? shortUrl(result.url) : result.id;
  const { code } = result.error ?? {};
  const said = result.error?.message;
  const message = said && result.url ? said.replace(` from ${result.url}`, '') : said;
  if (message && code) return `${page} failed: ${message} (${code})`;
  if (message || code) return `${page} failed: ${message || code}`;
  const status = result.http_status ? ` (HTTP ${result.http_status})` : '';
  return `${page} failed${status}; the service gave no reason`;
}

/** A result's icon: extracted data, a page, or a failure. */
export function resultIcon(result: Result, runType: string): Icon {
  if (result.status === 'failed') return { id: 'error', color: 'testing.iconFailed' };
  return { id: runType === 'extract' ? 'json' : 'file-text' };
}

/**
 * Flags of a result for menus: `result`, `openable` when it succeeded (else `failed`), `hasScreenshot`.
 *
 * @example
 * ```ts
 * resultContextValue({ id: 'r', status: 'succeeded', has_screenshot: true }); // 'result openable hasScreenshot'
 * ```
 */
export function resultContextValue(result: Result): string {
  const flags = ['result'];
  flags.push(result.status === 'failed' ? 'failed' : 'openable');
  if (result.has_screenshot) flags.push('hasScreenshot');
  return flags.join(' ');
}

/**
 * `just now`, `42 s ago`, `3 min ago`, `5 h ago`, `2 d ago`, then the date.
 *
 * @example
 * ```ts
 * relativeTime('2024-05-01T10:00:00Z', Date.parse('2024-05-01T12:30:00Z')); // '2 h ago'
 * ```
 */
export function relativeTime(iso: string, now: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 10) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days < 30) return `${days} d ago`;
  return iso.slice(0, 10);
}

/** A URL without its scheme, `www.` and trailing slash, shortened to 60 characters. */
export function shortUrl(url: string): string {
  const short = url.replace(/^https?:\/\/(www\.)?/i, '').replace(/\/$/, '');
  return short.length > 60 ? `${short.slice(0, 59)}…` : short;
}
