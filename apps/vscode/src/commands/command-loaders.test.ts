import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMAND_LOADERS } from './command-loaders.js';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  contributes: { commands: { command: string }[] };
};

describe('COMMAND_LOADERS', () => {
  it('registers exactly the commands package.json contributes, each once', () => {
    const ids = COMMAND_LOADERS.map((loader) => loader.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(manifest.contributes.commands.map((c) => c.command).sort());
  });
});
