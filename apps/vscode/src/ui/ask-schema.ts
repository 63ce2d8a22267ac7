import * as vscode from 'vscode';
import { fieldsFromSchema, schemaFromFields } from '../text/fields-schema.js';

/** A schema used before, remembered across sessions. */
interface RecentSchema {
  label: string;
  schema: Record<string, unknown>;
}

const RECENTS_KEY = 'webdata.recentSchemas';
const MAX_RECENTS = 5;

type SchemaChoice = vscode.QuickPickItem & { pick: 'fields' | 'file' | 'none' | RecentSchema };

/**
 * Asks for an extraction schema: fields typed as `name:type`, a JSON Schema
 * file of the workspace, a recently used schema, or (with a query) none.
 * Resolves to the schema, `null` for none, `undefined` when the user gave up.
 */
export async function askSchema(
  state: vscode.Memento,
  options: { title: string; allowNone: boolean },
): Promise<Record<string, unknown> | null | undefined> {
  const recents = state.get<RecentSchema[]>(RECENTS_KEY, []);
  const items: SchemaChoice[] = [
    {
      label: '$(edit) Type fields…',
      description: 'as name:type, e.g. name!:string, price:number',
      pick: 'fields',
    },
    { label: '$(json) JSON Schema file…', description: 'a .json file of this workspace', pick: 'file' },
  ];
  if (recents.length > 0)
    items.push({ label: 'Recent', kind: vscode.QuickPickItemKind.Separator, pick: 'none' });
  for (const recent of recents) items.push({ label: `$(history) ${recent.label}`, pick: recent });
  if (options.allowNone) {
    items.push({ label: '', kind: vscode.QuickPickItemKind.Separator, pick: 'none' });
    items.push({
      label: '$(circle-slash) No schema',
      description: 'let the query say what to extract',
      pick: 'none',
    });
  }
  const choice = await vscode.window.showQuickPick(items, {
    title: options.title,
    placeHolder: 'Which fields to extract?',
    ignoreFocusOut: true,
  });
  if (!choice) return undefined;
  if (choice.pick === 'none') return null;
  if (choice.pick === 'fields') return askFields(state, options.title);
  if (choice.pick === 'file') return pickSchemaFile(state, options.title);
  await remember(state, choice.pick);
  return choice.pick.schema;
}

/** Asks for `name:type` fields, checking them as they are typed. */
export async function askFields(
  state: vscode.Memento,
  title: string,
): Promise<Record<string, unknown> | undefined> {
  const typed = await vscode.window.showInputBox({
    title,
    prompt:
      'Fields as name:type, separated by commas. Types: string, number, integer, boolean, url, date, datetime; add [] for a list, ! after the name for a required field.',
    placeHolder: 'name!:string, price:number, tags:string[]',
    ignoreFocusOut: true,
    validateInput: (value) => {
      const parsed = schemaFromFields(value);
      return parsed.ok ? undefined : parsed.error;
    },
  });
  if (typed === undefined) return undefined;
  const parsed = schemaFromFields(typed);
  if (!parsed.ok) return undefined;
  const schema = parsed.schema as unknown as Record<string, unknown>;
  await remember(state, { label: fieldsFromSchema(schema) ?? typed.trim(), schema });
  return schema;
}

async function pickSchemaFile(
  state: vscode.Memento,
  title: string,
): Promise<Record<string, unknown> | undefined> {
  const files = await vscode.workspace.findFiles('**/*.json', '**/node_modules/**', 1000);
  if (files.length === 0) {
    void vscode.window.showWarningMessage('This workspace has no .json file to use as a schema.');
    return undefined;
  }
  // Files named *.schema.json first: they are the likely ones.
  files.sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
  const picked = await vscode.window.showQuickPick(
    files.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })),
    {
      title,
      placeHolder: 'A JSON Schema with type "object" and properties',
      ignoreFocusOut: true,
      matchOnDescription: true,
    },
  );
  if (!picked) return undefined;
  let schema: unknown;
  try {
    schema = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(picked.uri)));
  } catch (error) {
    void vscode.window.showErrorMessage(`${picked.label} is not JSON: ${(error as Error).message}`);
    return undefined;
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    void vscode.window.showErrorMessage(`${picked.label} is not a JSON Schema object.`);
    return undefined;
  }
  const record = schema as Record<string, unknown>;
  await remember(state, { label: fieldsFromSchema(record) ?? picked.label, schema: record });
  return record;
}

function rank(uri: vscode.Uri): number {
  return uri.path.endsWith('.schema.json') ? 0 : 1;
}

async function remember(state: vscode.Memento, recent: RecentSchema): Promise<void> {
  const key = JSON.stringify(recent.schema);
  const others = state.get<RecentSchema[]>(RECENTS_KEY, []).filter((r) => JSON.stringify(r.schema) !== key);
  await state.update(RECENTS_KEY, [recent, ...others].slice(0, MAX_RECENTS));
}
