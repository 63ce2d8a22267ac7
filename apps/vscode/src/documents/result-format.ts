import type { Run } from '../runs/run-types.js';
import { RESULT_FORMATS, type ResultFormat } from './result-uri.js';

/**
 * The format a run's results open in: extracted data as JSON; crawled pages
 * in the first format the run asked for (Markdown unless it asked otherwise).
 *
 * @example
 * ```ts
 * formatForRun({ type: 'crawl', params: { formats: ['html', 'markdown'] } }); // 'html'
 * ```
 */
export function formatForRun(run: Pick<Run, 'type' | 'params'>): ResultFormat {
  if (run.type === 'extract') return 'json';
  const formats = run.params?.formats;
  const first = Array.isArray(formats) ? formats[0] : undefined;
  return typeof first === 'string' && Object.hasOwn(RESULT_FORMATS, first)
    ? (first as ResultFormat)
    : 'markdown';
}
