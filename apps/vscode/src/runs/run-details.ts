import { countOf } from '../text/count-of.js';
import { duration, runAsked, TYPE_LABELS } from '../tree/describe-run.js';
import { requestOfRun } from './run-request.js';
import type { Run } from './run-types.js';

/**
 * A run's details as Markdown, for its read-only tab (Show Run Details): what
 * it was asked (in words, then the request itself as JSON, as Run Again would
 * send it), its timings (created, how long it waited in the queue, how long
 * it took), its pages by state, and its error. The tooltip says the same in
 * short; this is the whole of it, to read and copy from.
 *
 * @example
 * ```ts
 * runDetails(run).split('\n')[0]; // '# Extract · completed'
 * ```
 */
export function runDetails(run: Run): string {
  const lines = [`# ${TYPE_LABELS[run.type] ?? run.type} · ${run.status}`, '', `Run \`${run.id}\``, ''];
  const asked = runAsked(run.params);
  lines.push('## Asked', '');
  if (asked) lines.push(asked, '');
  const request = requestOfRun(run);
  if (request) {
    lines.push('```json', JSON.stringify(request, null, 2), '```', '');
  } else {
    lines.push(...run.urls.map((url) => `- ${url}`), '');
  }

  lines.push('## Timings', '', '| | when | |', '| --- | --- | --- |');
  lines.push(`| created | ${run.created_at} | |`);
  if (run.started_at) {
    const waited = duration(run.created_at, run.started_at);
    lines.push(`| started | ${run.started_at} | ${waited ? `queued ${waited}` : ''} |`);
  }
  if (run.finished_at) {
    const took = run.started_at ? duration(run.started_at, run.finished_at) : undefined;
    lines.push(`| finished | ${run.finished_at} | ${took ? `took ${took}` : ''} |`);
  }
  if (run.updated_at) lines.push(`| last change | ${run.updated_at} | |`);
  lines.push('');

  const stats = run.stats;
  if (stats?.total !== undefined) {
    lines.push('## Pages', '');
    const counts = ['succeeded', 'failed', 'running', 'queued', 'cancelled']
      .filter((key) => (stats[key] ?? 0) > 0)
      .map((key) => `${stats[key]} ${key}`);
    lines.push(`${stats.total} in all${counts.length > 0 ? `: ${counts.join(', ')}` : ''}`, '');
  }
  if (run.error) {
    const code = run.error.code ? ` (\`${run.error.code}\`)` : '';
    lines.push('## Error', '', `${run.error.message ?? 'unknown'}${code}`, '');
  }
  return lines.join('\n');
}

/**
 * What a run is, to name its details tab: its kind, the site it went to
 * and how many pages it was asked for (`Crawl · docs.python.org (3 pages)`),
 * all of it from what the run was asked, so the name stays the same while
 * the run goes on. Its id is in the tab's text, not its name.
 *
 * @example
 * ```ts
 * runDetailsTitle({ type: 'deep-crawl', urls: ['https://docs.python.org/3/'],
 *   params: { url: 'https://docs.python.org/3/', limit: 50 } });
 * // 'Deep crawl · docs.python.org (at most 50 pages)'
 * ```
 */
export function runDetailsTitle(run: Pick<Run, 'type' | 'urls' | 'params'>): string {
  const type = TYPE_LABELS[run.type] ?? run.type;
  const start = typeof run.params?.url === 'string' ? run.params.url : undefined;
  const sites = [...new Set((start ? [start] : run.urls).map(hostOf).filter((host) => host !== ''))];
  const where =
    sites.length === 0
      ? ''
      : ` · ${sites[0]}${sites.length > 1 ? ` +${countOf(sites.length - 1, 'site')}` : ''}`;
  const limit = run.params?.limit;
  const pages =
    start && typeof limit === 'number'
      ? ` (at most ${countOf(limit, 'page')})`
      : run.urls.length > 0
        ? ` (${countOf(run.urls.length, 'page')})`
        : '';
  return `${type}${where}${pages}`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host.replace(/^www\./, '');
  } catch {
    return '';
  }
}
