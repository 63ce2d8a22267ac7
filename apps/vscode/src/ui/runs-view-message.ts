import type { ConnectionState } from '../connection/connection-state.js';

/**
 * The line shown above the Runs view's rows, or none (`undefined`).
 *
 * With no run listed there is none: VS Code shows a view's welcome content
 * (no key, the key refused, no service answering, no runs yet, no run
 * matching the filter, each with what to do) only while the view has no
 * message. With runs listed, it says where they come from, or that the
 * service stopped answering while they stay listed. Plain text: a view's
 * message draws no `$(icon)`.
 *
 * @example
 * ```ts
 * runsViewMessage('connected', 'http://127.0.0.1:8787', true); // 'Connected to http://127.0.0.1:8787'
 * runsViewMessage('connected', 'http://127.0.0.1:8787', false); // undefined: "No runs yet" shows
 * ```
 */
export function runsViewMessage(
  state: ConnectionState,
  baseUrl: string,
  runsListed: boolean,
): string | undefined {
  if (!runsListed) return undefined;
  switch (state) {
    case 'connected':
      return `Connected to ${baseUrl}`;
    case 'unreachable':
      return `Lost the connection to ${baseUrl}: retrying…`;
    case 'unauthorized':
      return `${baseUrl} refused the API key: run Web Data: Set API Key`;
    case 'rateLimited':
      return `${baseUrl} asks to wait (too many requests): the view tries again on its own`;
    case 'error':
      return `Could not refresh the runs from ${baseUrl}: Web Data: Show Log says why`;
    default:
      return undefined;
  }
}

/** The Runs view's title, as package.json names the view. */
export const RUNS_VIEW_TITLE = 'Runs';

/**
 * The Runs view's title: `Runs`, and the service's address while something
 * is wrong with it (not answering, refusing the key, asking to wait, another
 * error), which the welcome content, which VS Code cannot fill in, points
 * at. (A view's description would not do: VS Code does not draw it when the
 * view is alone in its container, as this one is.)
 *
 * @example
 * ```ts
 * runsViewTitle('unreachable', 'http://127.0.0.1:9999'); // 'Runs · 127.0.0.1:9999'
 * runsViewTitle('connected', 'http://127.0.0.1:9999'); // 'Runs'
 * ```
 */
export function runsViewTitle(state: ConnectionState, baseUrl: string): string {
  if (state === 'noKey' || state === 'connecting' || state === 'connected') return RUNS_VIEW_TITLE;
  return `${RUNS_VIEW_TITLE} · ${baseUrl.replace(/^https?:\/\//, '').replace(/\/+$/, '')}`;
}
