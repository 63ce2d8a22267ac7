import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { keyStepId } from './ui/key-step-id.js';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  contributes: {
    commands: { command: string; title: string }[];
    viewsWelcome: { contents: string }[];
    menus: { commandPalette: { command: string; when: string }[] };
    keybindings: { command: string; key: string; mac?: string; when: string; args?: unknown }[];
    configuration: {
      title: string;
      properties: Record<
        string,
        { markdownDescription: string; markdownDeprecationMessage?: string; order?: number }
      >;
    };
    walkthroughs: {
      id: string;
      steps: { id: string; title: string; description: string; completionEvents?: string[] }[];
    }[];
  };
};

describe('package.json texts VS Code draws', () => {
  it('use no `code`: a walkthrough step draws links and bold only, a welcome view links only, backticks as they are', () => {
    const texts = [
      ...manifest.contributes.viewsWelcome.map((view) => view.contents),
      ...manifest.contributes.walkthroughs.flatMap((walkthrough) =>
        walkthrough.steps.map((step) => step.description),
      ),
    ];
    expect(texts.filter((text) => text.includes('`'))).toEqual([]);
  });

  it('use no **bold** in a welcome view, which draws its asterisks as they are', () => {
    expect(manifest.contributes.viewsWelcome.filter((view) => view.contents.includes('**'))).toEqual([]);
  });
});

describe('the walkthrough', () => {
  const step = (id: string) =>
    manifest.contributes.walkthroughs
      .flatMap((walkthrough) => walkthrough.steps)
      .find((each) => each.id === id);

  it('ticks "Start a Web Data service" once a service answers (it ticked only on its link)', () => {
    expect(step('startService')?.completionEvents).toEqual(['onContext:webdata.connection == connected']);
  });

  it('ticks "Set the API key" once the service took a key, not once one is kept (a refused key ticked it)', () => {
    expect(step('setApiKey')?.completionEvents).toEqual(['onContext:webdata.apiKeyAccepted']);
    // The id the extension marks the step done / not done by, as the workbench composes it.
    const walkthrough = manifest.contributes.walkthroughs.find((each) =>
      each.steps.some((s) => s.id === 'setApiKey'),
    );
    expect(keyStepId('webdata.webdata')).toBe(`webdata.webdata#${walkthrough?.id}#setApiKey`);
  });

  it('ticks the extraction step however the extraction was started: the command or the lens', () => {
    expect(step('extract')?.completionEvents).toEqual(
      expect.arrayContaining(['onCommand:webdata.extractFromUrls', 'onCommand:webdata.extractFromUrl']),
    );
  });
});

describe('the command palette', () => {
  it('offers Clear Runs Filter only while a filter is set (it did nothing without one)', () => {
    const entry = manifest.contributes.menus.commandPalette.find(
      (item) => item.command === 'webdata.runs.clearFilter',
    );
    expect(entry?.when).toBe('webdata.runs.filtered');
  });
});

describe('command titles', () => {
  const SRC = dirname(fileURLToPath(import.meta.url));
  /** What asks the user something before the command acts: an input box, a pick, a modal question. */
  const ASKS = /showInputBox|showQuickPick|createQuickPick|createInputBox|showOpenDialog|modal: true/;
  /** Commands whose modules ask, but not before every use (VS Code's "…" means it always asks). */
  const ASKS_SOMETIMES: Record<string, string> = {
    'webdata.run.openAllResults': 'asks only before opening more than 10 tabs',
    'webdata.runs.clearFilter': 'shares apply-filter.ts with the two filter pickers, asks nothing',
  };

  /** The source files a module pulls in through relative imports, itself included. */
  function modulesOf(file: string, seen = new Set<string>()): Set<string> {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const [, path] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)\.js'/g)) {
      modulesOf(resolve(dirname(file), `${path}.ts`), seen);
    }
    return seen;
  }

  /** Each command's id and whether its code asks for input, read from src/commands. */
  const commands = readdirSync(join(SRC, 'commands'))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && name !== 'command-loaders.ts')
    .map((name) => join(SRC, 'commands', name))
    .map((file) => ({
      id: /id: '(webdata\.[^']+)'/.exec(readFileSync(file, 'utf8'))?.[1],
      asks: [...modulesOf(file)].some((module) => ASKS.test(readFileSync(module, 'utf8'))),
    }));

  it('end in "…" exactly when the command asks for more before it acts (VS Code\'s convention)', () => {
    expect(commands.length).toBe(manifest.contributes.commands.length);
    const titles = new Map(manifest.contributes.commands.map((entry) => [entry.command, entry.title]));
    const wrong = commands
      .filter(({ id }) => id && !(id in ASKS_SOMETIMES))
      .filter(({ id, asks }) => titles.get(id!)?.endsWith('…') !== asks)
      .map(({ id, asks }) => `${titles.get(id!)} (${id}) ${asks ? 'asks' : 'asks nothing'}`);
    expect(wrong).toEqual([]);
  });
});

describe('the Runs view from the keyboard', () => {
  const binding = (command: string) =>
    manifest.contributes.keybindings.find((each) => each.command === command);

  it('binds Enter (open the row) and Delete (delete its run, after asking) in the Runs view, not in its filter box', () => {
    expect(binding('webdata.runs.openRow')?.key).toBe('enter');
    expect(binding('webdata.run.delete')).toMatchObject({ key: 'delete', mac: 'cmd+backspace' });
    for (const command of ['webdata.runs.openRow', 'webdata.run.delete']) {
      const when = binding(command)?.when ?? '';
      expect(when.split(' && ').sort()).toEqual(['!inputFocus', 'focusedView == webdata.runs', 'listFocus']);
      // VS Code's extension host hands the command the row with the focus for this argument (a
      // keybinding's `when` has no `viewItem`): the command checks what kind of row it is.
      expect(binding(command)?.args).toEqual({ $treeViewId: 'webdata.runs', $focusedTreeItem: true });
    }
  });
});

describe('the settings', () => {
  const properties = manifest.contributes.configuration.properties;

  // VS Code's Settings editor names a setting after its id's last segment, title-cased (a category
  // before it from the segments between, `runs.pageSize` "Runs: Page Size"), and nothing else: an
  // extension's setting has no title of its own. `webdata.baseUrl` showed as "Base Url".
  it('read as a user names them: the address is the Service Address, first', () => {
    const shown = Object.entries(properties)
      .filter(([, property]) => !property.markdownDeprecationMessage)
      .sort(([, a], [, b]) => (a.order ?? 99) - (b.order ?? 99))
      .map(([id]) => titleOf(id));
    expect(shown).toEqual([
      'Service Address',
      'Runs: Page Size',
      'Runs: Refresh Interval Seconds',
      'Code Lens: Enabled',
    ]);
    expect(manifest.contributes.configuration.title).toBe('Web Data');
  });

  it('say the API key is not one of them, and where it is set', () => {
    expect(properties['webdata.serviceAddress']?.markdownDescription).toContain(
      '[Set API Key…](command:webdata.setApiKey)',
    );
  });

  it("keep reading the address's former id, which users have in their settings files, and say what replaced it", () => {
    expect(properties['webdata.baseUrl']?.markdownDeprecationMessage).toContain('`#webdata.serviceAddress#`');
    expect(Object.keys(properties)).toEqual(
      expect.arrayContaining([
        'webdata.runs.pageSize',
        'webdata.runs.refreshIntervalSeconds',
        'webdata.codeLens.enabled',
      ]),
    );
  });
});

/** A setting's title as VS Code's Settings editor shows it within its extension's group (`settingKeyToDisplayFormat`). */
function titleOf(id: string): string {
  const words = (key: string) =>
    key
      .replace(/\.([a-z0-9])/g, (_, letter: string) => ` › ${letter.toUpperCase()}`)
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/^[a-z]/, (letter) => letter.toUpperCase());
  const segments = id.split('.').slice(1);
  const label = words(segments.pop()!);
  return segments.length > 0 ? `${words(segments.join('.'))}: ${label}` : label;
}
