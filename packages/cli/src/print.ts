import type { ContentValue, RunLenient } from '@webdata/core';
import type { Output } from './io.js';

/** A result as the CLI prints it (a run stream's or a results listing's). */
export interface PrintableResult {
  id: string;
  url?: string | undefined;
  status?: string | undefined;
  title?: string | null | undefined;
  http_status?: number | null | undefined;
  data?: unknown;
  error?: { code: string; message?: string | undefined } | null | undefined;
  content?: ContentValue | null | undefined;
}

/** One result's content as text (links one a line, objects as indented JSON). */
function contentText(content: ContentValue): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.join('\n');
  return JSON.stringify(content, null, 2);
}

/**
 * Results for a person: with content, each page's content under an HTML
 * comment naming its URL (invisible once the Markdown is rendered); else one
 * line a result (status, HTTP status, URL, title), and extracted data as JSON.
 */
export function printResults(out: Output, results: readonly PrintableResult[], withContent: boolean): void {
  for (const result of results) {
    const failure = result.error
      ? `${result.error.code}${result.error.message ? `: ${result.error.message}` : ''}`
      : '';
    if (withContent) {
      out.line(`<!-- ${result.url ?? result.id}${failure ? ` (failed: ${failure})` : ''} -->`);
      if (result.content !== null && result.content !== undefined)
        out.line(contentText(result.content).trimEnd());
      out.line('');
      continue;
    }
    const http = result.http_status ?? '-';
    out.line(
      [result.status ?? '-', String(http), result.url ?? result.id, failure || (result.title ?? '')]
        .join('  ')
        .trimEnd(),
    );
    if (result.data !== null && result.data !== undefined) out.line(JSON.stringify(result.data, null, 2));
  }
}

/** A run's outcome in one line, for stderr. */
export function runSummary(run: RunLenient): string {
  const stats = run.stats;
  const counts = stats
    ? `: ${stats.succeeded ?? 0} succeeded, ${stats.failed ?? 0} failed${stats.cancelled ? `, ${stats.cancelled} cancelled` : ''}`
    : '';
  const error = run.error ? ` (${run.error.code}${run.error.message ? `: ${run.error.message}` : ''})` : '';
  return `run ${run.id} ${run.status}${counts}${error}`;
}

/** A run as `runs get` shows it. */
export function printRun(out: Output, run: RunLenient): void {
  const stats = run.stats;
  const lines: [string, unknown][] = [
    ['id', run.id],
    ['status', run.status],
    ['type', run.type],
    ['urls', run.urls.join(' ')],
    ['created', run.created_at],
    ['finished', run.finished_at ?? '-'],
    [
      'pages',
      stats
        ? `${stats.succeeded ?? 0} succeeded, ${stats.failed ?? 0} failed, ${stats.queued ?? 0} queued, ${stats.running ?? 0} running (of ${stats.total ?? 0})`
        : '-',
    ],
  ];
  if (run.error) lines.push(['error', `${run.error.code}: ${run.error.message ?? ''}`]);
  for (const [name, value] of lines) out.line(`${`${name}:`.padEnd(10)}${String(value)}`);
}
