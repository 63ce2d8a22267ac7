import type { ConnectionState } from '../connection/connection-state.js';
import type { RunFilter } from '../runs/run-types.js';
import { DEFAULT_BASE_URL } from '../settings.js';
import { TYPE_LABELS } from '../tree/describe-run.js';

/**
 * The text shown above the Runs view's rows, or none (`undefined`).
 *
 * With runs listed, it says where they come from, or why they stopped
 * updating while they stay listed. With none listed, it says what is wrong
 * with the service at the configured address (not answering, refusing the
 * key, asking to wait, another error), naming that address, which the
 * welcome content (static text from package.json) cannot, and the view's
 * title, cut at the default sidebar width, did not show whole; the rows
 * below it are what to do ({@link runsViewActions}), since VS Code hides the
 * welcome content while a view has a message. With no key, no runs yet or
 * none matching the filter there is no message, and the welcome content
 * shows. A filter is said too (`showing completed crawl runs only`): the
 * view's description, where it also goes, is not drawn while the view is
 * alone in its container, and it was nowhere else. Plain text: a view's
 * message draws no `$(icon)`.
 *
 * @example
 * ```ts
 * runsViewMessage('connected', 'http://127.0.0.1:8787', true); // 'Connected to http://127.0.0.1:8787'
 * runsViewMessage('connected', 'http://127.0.0.1:8787', false); // undefined: "No runs yet" shows
 * runsViewMessage('unreachable', 'http://10.0.0.7:9000', false);
 * // 'No Web Data service answers at http://10.0.0.7:9000 (the setting Service Address). …'
 * ```
 */
export function runsViewMessage(
  state: ConnectionState,
  baseUrl: string,
  runsListed: boolean,
  filter: RunFilter = {},
): string | undefined {
  const only = filterPhrase(filter);
  if (!runsListed) {
    if (state === 'connected' && only) return `No ${only} at ${baseUrl}: Clear Filter shows every run.`;
    return problemMessage(state, baseUrl);
  }
  switch (state) {
    case 'connected':
      return only ? `Connected to ${baseUrl}, showing ${only} only` : `Connected to ${baseUrl}`;
    case 'unreachable':
      return `Lost the connection to ${baseUrl}: retrying…`;
    case 'unauthorized':
      return `${baseUrl} refused the API key: run Web Data: Set API Key…`;
    case 'rateLimited':
      return `${baseUrl} asks to wait (too many requests): the view tries again on its own`;
    case 'error':
      return `Could not refresh the runs from ${baseUrl}: Web Data: Show Log says why`;
    default:
      return undefined;
  }
}

function problemMessage(state: ConnectionState, baseUrl: string): string | undefined {
  switch (state) {
    case 'unreachable':
      return atDefault(baseUrl)
        ? `No Web Data service answers at ${baseUrl}, the default address (the setting Service Address). To run one on this machine, run "pnpm start" in a clone of webdata: it listens there and prints an API key.`
        : `No Web Data service answers at ${baseUrl} (the setting Service Address). ("pnpm start" in a clone of webdata runs one at ${DEFAULT_BASE_URL}, the default address.)`;
    case 'unauthorized':
      return `The Web Data service at ${baseUrl} refused the API key.`;
    case 'rateLimited':
      return `The Web Data service at ${baseUrl} asks to wait: too many requests came from this address (requests with a wrong API key count). The view tries again on its own in a few seconds.`;
    case 'error':
      return isWebAddress(baseUrl)
        ? `The runs could not be listed from ${baseUrl}. The log (Web Data: Show Log) says why.`
        : `The setting Service Address, "${baseUrl}", is not a web address: give the service's, as in ${DEFAULT_BASE_URL}.`;
    default:
      return undefined;
  }
}

/** Whether the extension can talk to `address`: an http(s) URL with a host. */
function isWebAddress(address: string): boolean {
  try {
    const url = new URL(address);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** `completed crawl runs`, `failed runs`, `deep crawl runs`; `''` without a filter. */
function filterPhrase(filter: RunFilter): string {
  const type = filter.type ? (TYPE_LABELS[filter.type] ?? filter.type).toLowerCase() : '';
  if (!filter.status && !type) return '';
  return [filter.status, type, 'runs'].filter(Boolean).join(' ');
}

function atDefault(baseUrl: string): boolean {
  return baseUrl.replace(/\/+$/, '') === DEFAULT_BASE_URL;
}

/** A row of the Runs view that runs a command: what to do about the problem its message names. */
export interface ViewAction {
  label: string;
  /** A codicon id. */
  icon: string;
  /** The command run, with no argument. */
  command: string;
}

const TRY_AGAIN: ViewAction = { label: 'Try Again', icon: 'refresh', command: 'webdata.runs.refresh' };
const CHANGE_ADDRESS: ViewAction = {
  label: 'Change the Address…',
  icon: 'gear',
  command: 'webdata.openSettings',
};
const SET_KEY: ViewAction = { label: 'Set API Key…', icon: 'key', command: 'webdata.setApiKey' };
const SHOW_LOG: ViewAction = { label: 'Show Log', icon: 'output', command: 'webdata.showLog' };
const CLEAR_FILTER: ViewAction = {
  label: 'Clear Filter',
  icon: 'clear-all',
  command: 'webdata.runs.clearFilter',
};

/**
 * The rows the Runs view shows, below its message, while no run is listed and
 * the service at the configured address does not answer, refuses the key,
 * asks to wait or errs, or no run matches the filter: what the welcome
 * content's buttons offered. None otherwise (the welcome content shows, or
 * the runs do).
 *
 * @example
 * ```ts
 * runsViewActions('unreachable').map((action) => action.label); // ['Try Again', 'Change the Address…']
 * ```
 */
export function runsViewActions(state: ConnectionState, filtered = false): readonly ViewAction[] {
  switch (state) {
    case 'connected':
      return filtered ? [CLEAR_FILTER] : [];
    case 'unreachable':
      return [TRY_AGAIN, CHANGE_ADDRESS];
    case 'unauthorized':
      return [SET_KEY, CHANGE_ADDRESS];
    case 'rateLimited':
      return [TRY_AGAIN, SET_KEY];
    case 'error':
      // The address is what most often makes every request fail (a mistyped one is not even tried).
      return [TRY_AGAIN, CHANGE_ADDRESS, SHOW_LOG];
    default:
      return [];
  }
}
