import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  contributes: {
    viewsWelcome: { contents: string }[];
    menus: { commandPalette: { command: string; when: string }[] };
    walkthroughs: { steps: { title: string; description: string }[] }[];
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

describe('the command palette', () => {
  it('offers Clear Runs Filter only while a filter is set (it did nothing without one)', () => {
    const entry = manifest.contributes.menus.commandPalette.find(
      (item) => item.command === 'webdata.runs.clearFilter',
    );
    expect(entry?.when).toBe('webdata.runs.filtered');
  });
});
