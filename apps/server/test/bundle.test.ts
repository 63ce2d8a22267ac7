import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import tsupConfig from '../tsup.config.js';

/**
 * The server bundle (`dist/`, built by tsup with esbuild) must carry no
 * measurement code: benchmarks, quality harnesses, fixtures and test helpers
 * live outside `src/` and no entry point may reach them. The bundle's inputs
 * are read from esbuild's metafile for tsup's own entries, so a dynamic
 * `import()` counts as well as a static one.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Why a bundled file of this package is measurement or test code, or null when it is server code. */
function measurementReason(file: string): string | null {
  if (!file.startsWith('src/')) return `${file.split('/')[0]}/ is not part of the server (only src/ is)`;
  if (/\.test(-support)?\.ts$/.test(file)) return 'a test file';
  if (file.split('/').includes('fixtures')) return 'a test fixture';
  if (/(^|[/-])(bench|benchmark|accuracy|quality)[^/]*\.ts$/.test(file)) return 'a measurement module';
  return null;
}

async function bundleInputs(): Promise<Metafile> {
  const config = Array.isArray(tsupConfig) ? tsupConfig[0] : tsupConfig;
  if (typeof config !== 'object' || config === null || !config.entry || Array.isArray(config.entry)) {
    throw new Error('tsup.config.ts is expected to name its entries in an object');
  }
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    optionalDependencies?: Record<string, string>;
  };
  const bundledIn = new Set((config.noExternal ?? []).map(String));
  // As tsup does: dependencies stay external except those it is told to bundle (the workspace contract).
  const external = [
    ...Object.keys(manifest.dependencies),
    ...Object.keys(manifest.optionalDependencies ?? {}),
  ]
    .filter((name) => !bundledIn.has(name))
    .flatMap((name) => [name, `${name}/*`]);
  const result = await build({
    absWorkingDir: root,
    entryPoints: config.entry,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outdir: 'dist',
    external,
    conditions: ['source'],
    logLevel: 'silent',
  });
  return result.metafile;
}

/** The chain of imports from an entry to `target`, for a message that says where the import comes from. */
function importChain(metafile: Metafile, entries: string[], target: string): string[] {
  const previous = new Map<string, string | null>(entries.map((entry) => [entry, null]));
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (file === target) {
      const chain: string[] = [];
      for (let at: string | null = file; at !== null; at = previous.get(at) ?? null) chain.unshift(at);
      return chain;
    }
    for (const { path } of metafile.inputs[file]?.imports ?? []) {
      if (!previous.has(path)) {
        previous.set(path, file);
        queue.push(path);
      }
    }
  }
  return [target];
}

describe('the server bundle', () => {
  it('tells measurement code from server code', () => {
    expect(measurementReason('src/engine/run-state.ts')).toBeNull();
    expect(measurementReason('src/screenshots/screenshot-service.ts')).toBeNull();
    expect(measurementReason('bench/screenshot-bench.ts')).not.toBeNull();
    expect(measurementReason('quality/extract/accuracy.ts')).not.toBeNull();
    expect(measurementReason('test/fixture-site.ts')).not.toBeNull();
    expect(measurementReason('src/screenshots/bench.ts')).not.toBeNull();
    expect(measurementReason('src/extract/accuracy.ts')).not.toBeNull();
    expect(measurementReason('src/content/fixtures/page.ts')).not.toBeNull();
    expect(measurementReason('src/fetch/fixture-server.test-support.ts')).not.toBeNull();
  });

  it('bundles no benchmark, quality harness, fixture or test helper', { timeout: 60_000 }, async () => {
    const metafile = await bundleInputs();
    const ownFiles = Object.keys(metafile.inputs).filter(
      (file) => !file.includes('node_modules') && !file.startsWith('../'),
    );
    // The server itself is in there (the check is not run on an empty bundle).
    expect(ownFiles).toEqual(
      expect.arrayContaining(['src/main.ts', 'src/server.ts', 'src/engine/run-service.ts']),
    );
    const entries = Object.values(metafile.outputs)
      .map((output) => output.entryPoint)
      .filter((entry): entry is string => entry !== undefined);
    const offending = ownFiles
      .map((file) => ({ file, reason: measurementReason(file) }))
      .filter((found) => found.reason !== null)
      .map(({ file, reason }) => `${importChain(metafile, entries, file).join(' → ')} (${reason})`);
    expect(offending, `imported by ${relative(process.cwd(), root) || '.'}'s bundle`).toEqual([]);
  });
});
