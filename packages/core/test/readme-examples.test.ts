/**
 * The README's TypeScript examples compile against this package's sources, in
 * strict mode: each block becomes the body of a function, after a prelude that
 * declares what the examples take as given (a progress bar, a list of URLs, a
 * run id). An example that drifts from the API fails here, not in a reader's editor.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(here, '..', 'README.md'), 'utf8');

const PRELUDE = `
import { writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { collectRun, createClient, eachEvent, WebDataError } from '../src/index.js';
declare const bar: { update(done: number, total: number): void; stop(status: string): void };
declare const rows: unknown[];
declare const urls: string[];
declare const runId: string;
declare const ids: string[];
declare const table: Map<string, string>;
declare function seen(url: string | undefined): boolean;
declare function updateTree(run: unknown): void;
declare function updateStatusBar(run: unknown): void;
`;

/** Every \`\`\`ts block, its own import lines left out (the prelude imports for all). */
function examples(markdown: string): string[] {
  return [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) =>
    match[1]!.replace(/^import [\s\S]*?;\n/gm, ''),
  );
}

describe('README examples', () => {
  it('compile in strict mode against the sources', () => {
    const blocks = examples(readme);
    expect(blocks.length).toBeGreaterThan(10);
    // The block that makes the client is top-level: the others use it.
    const source =
      PRELUDE +
      blocks
        .map((block, i) =>
          block.includes('const client = createClient')
            ? block
            : `async function example${i}() {\n${block}\n}\nvoid example${i};\n`,
        )
        .join('\n');
    const fileName = join(here, '__readme_examples__.ts');
    const options: ts.CompilerOptions = {
      strict: true,
      noUncheckedIndexedAccess: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      customConditions: ['source'],
      types: ['node'],
      skipLibCheck: true,
      noEmit: true,
    };
    const host = ts.createCompilerHost(options);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (name, version, ...rest) =>
      name === fileName ? ts.createSourceFile(name, source, version) : getSourceFile(name, version, ...rest);
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (name) => name === fileName || fileExists(name);
    const program = ts.createProgram([fileName], options, host);
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file?.fileName === fileName)
      .map((diagnostic) => {
        const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
        return `${source.split('\n')[line]?.trim()}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
      });
    expect(problems).toEqual([]);
  }, 60_000);
});
