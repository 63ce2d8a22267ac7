import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandContext } from '../context.js';

/**
 * A file name for a page's screenshot that says which page it is (host and
 * path, as `127.0.0.1-8080_docs_install.html.png`), unique within one call.
 */
function fileNameFor(url: string | undefined, fallback: string, taken: Set<string>): string {
  let base = fallback;
  if (url) {
    try {
      const { host, pathname, search } = new URL(url);
      base = `${host}${pathname}${search}`
        .replace(/[^A-Za-z0-9._-]+/g, '_')
        .replace(/_+$/, '')
        .slice(0, 120);
    } catch {}
  }
  let name = `${base}.png`;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}.png`;
  taken.add(name);
  return name;
}

/**
 * `webdata screenshots RUN_ID [--out DIR]`: the screenshots of a run's pages
 * (a run made with `--screenshot`). Without `--out`, a line a page with its
 * signed URL (fetchable without the key until it expires); with `--out`, the
 * PNG files written in DIR, a line a file. Pages without one are named on stderr.
 */
export async function screenshotsCommand(
  context: CommandContext,
  runId: string,
  options: { out?: string | undefined },
): Promise<number> {
  const { client, out } = context;
  const results = await client.runs.results(runId, { unfinished: 'read', signal: context.signal }).toArray();
  const taken = new Set<string>();
  const listed: {
    result_id: string;
    url: string | undefined;
    screenshot_url?: string;
    expires_at?: string;
    file?: string;
  }[] = [];
  let missing = 0;
  for (const result of results) {
    if (!result.has_screenshot) {
      if (result.screenshot_error) {
        out.note(
          `${result.url ?? result.id}: no screenshot (${result.screenshot_error.code}: ${result.screenshot_error.message})`,
        );
      }
      missing++;
      continue;
    }
    if (options.out) {
      const png = await client.runs.screenshotPng(runId, result.id, { signal: context.signal });
      mkdirSync(options.out, { recursive: true });
      const file = join(options.out, fileNameFor(result.url, result.id, taken));
      writeFileSync(file, png);
      out.line(`${file}  ${result.url ?? result.id}`);
      listed.push({ result_id: result.id, url: result.url, file });
    } else {
      const access = await client.runs.screenshot(runId, result.id, { signal: context.signal });
      out.line(`${result.url ?? result.id}  ${access.url}`);
      listed.push({
        result_id: result.id,
        url: result.url,
        screenshot_url: access.url,
        expires_at: access.expires_at,
      });
    }
  }
  out.document(listed);
  if (listed.length === 0) {
    out.note(
      `run ${runId} has no screenshots${results.length > 0 ? ` (${missing} pages without one)` : ''}: take them with --screenshot (webdata crawl --screenshot URL…)`,
    );
  }
  return 0;
}
