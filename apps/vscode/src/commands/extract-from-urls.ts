import * as vscode from 'vscode';
import type { Run } from '../runs/run-types.js';
import { startRun } from '../runs/start-run.js';
import type { Command, Services } from '../services.js';
import { countOf } from '../text/count-of.js';
import { schemaFromFields } from '../text/fields-schema.js';
import { askSchema } from '../ui/ask-schema.js';
import { confirmUrls, urlsInActiveEditor } from '../ui/pick-urls.js';
import { urlsTitle } from '../ui/urls-title.js';

/**
 * What can be given to Extract from URLs… instead of being asked for (by the
 * CodeLens, a test or a script): the URLs (then not confirmed), the query,
 * and the schema or its `name:type` fields.
 */
export interface ExtractOptions {
  urls?: string[];
  query?: string;
  fields?: string;
  schema?: Record<string, unknown>;
}

const LAST_QUERY = 'webdata.lastQuery';
const TITLE = 'Web Data: Extract from URLs';

/**
 * Extract from URLs…: the URLs of the selection (or of the whole file),
 * confirmed in a multi-select quick pick; a query; a schema (fields typed as
 * `name:type`, a JSON Schema file, a recent one). Then the run starts with a
 * cancellable progress notification. Resolves with the created run.
 */
export const extractFromUrls: Command = {
  id: 'webdata.extractFromUrls',
  run(services, arg?: unknown) {
    return extract(services, isExtractOptions(arg) ? arg : {});
  },
};

export async function extract(services: Services, options: ExtractOptions): Promise<Run | undefined> {
  const urls = options.urls ?? (await confirmUrls(urlsInActiveEditor(), TITLE));
  if (!urls || urls.length === 0) return undefined;
  // The boxes from here on name the URLs (a lens opens them with no list shown first).
  const title = urlsTitle('Extract from', urls);
  const state = services.context.globalState;
  const query =
    options.query ??
    (await vscode.window.showInputBox({
      title,
      prompt: 'What to extract, in words (optional when you give fields or a schema next)',
      placeHolder: "the product's name and price",
      value: state.get<string>(LAST_QUERY, ''),
      ignoreFocusOut: true,
    }));
  if (query === undefined) return undefined;
  let schema: Record<string, unknown> | null | undefined = options.schema;
  if (options.fields !== undefined) {
    const parsed = schemaFromFields(options.fields);
    if (!parsed.ok) throw new Error(parsed.error);
    schema = parsed.schema as unknown as Record<string, unknown>;
  }
  const hasQuery = query.trim() !== '';
  if (schema === undefined && (options.query === undefined || !hasQuery)) {
    schema = await askSchema(state, { title, allowNone: hasQuery });
    if (schema === undefined) return undefined;
  }
  if (hasQuery) await state.update(LAST_QUERY, query.trim());
  const what = `extraction from ${countOf(urls.length, 'URL')}`;
  return startRun(
    services,
    {
      type: 'extract',
      urls,
      ...(hasQuery ? { query: query.trim() } : {}),
      ...(schema ? { schema: schema as never } : {}),
    },
    what,
  );
}

function isExtractOptions(arg: unknown): arg is ExtractOptions {
  if (typeof arg !== 'object' || arg === null || arg instanceof vscode.Uri) return false;
  return ['urls', 'query', 'fields', 'schema'].some((key) => key in arg);
}
