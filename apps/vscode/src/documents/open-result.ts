import type * as vscode from 'vscode';
import type { Result, Run } from '../runs/run-types.js';
import { openResultDocument } from './result-content-provider.js';
import { formatForRun } from './result-format.js';

/**
 * Opens a result of a run in a tab titled with its page title: extracted
 * data as JSON, crawled pages as Markdown (or the run's first format).
 */
export function openResult(
  run: Pick<Run, 'id' | 'type' | 'params'>,
  result: Result,
  options: { preview?: boolean } = {},
): Promise<vscode.TextEditor> {
  return openResultDocument(
    {
      runId: run.id,
      resultId: result.id,
      format: formatForRun(run),
      title: result.title?.trim() || hostAndPath(result.url) || result.id,
    },
    options,
  );
}

function hostAndPath(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return url;
  }
}
