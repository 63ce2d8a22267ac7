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
