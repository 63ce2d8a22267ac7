// Bundles the extension (dist/extension.js) and its integration suite
// (dist/test/suite/index.js) and the bench's part inside VS Code
// (dist/bench/host/index.js) with esbuild: one CommonJS file each, `vscode`
// left to the extension host. Workspace packages are bundled from their
// TypeScript sources (the `source` export condition), so nothing else needs
// building first. `--watch` rebuilds on change.
import { build, context } from 'esbuild';

const shared = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  conditions: ['source'],
  // Prefer ESM builds of dependencies: they tree-shake (rxjs, zod).
  mainFields: ['module', 'main'],
  sourcemap: 'linked',
  logLevel: 'warning',
};

const targets = [
  {
    ...shared,
    entryPoints: { extension: 'src/extension.ts' },
    outdir: 'dist',
    external: ['vscode'],
    minify: true,
    // Read by extension.ts: how long loading the bundle takes (part of the activation time).
    banner: { js: '"use strict";var __webdataBundleStart = performance.now();' },
  },
  {
    ...shared,
    // The mocha suite runs inside VS Code's extension host; mocha itself is
    // loaded from node_modules (it reads its reporters and options from disk).
    entryPoints: { 'test/suite/index': 'test/suite/index.ts' },
    outdir: 'dist',
    external: ['vscode', 'mocha'],
  },
  {
    ...shared,
    // The bench's part inside the extension host (bench/host), loaded the same way.
    entryPoints: { 'bench/host/index': 'bench/host/index.ts' },
    outdir: 'dist',
    external: ['vscode'],
  },
];

if (process.argv.includes('--watch')) {
  for (const options of targets) await (await context(options)).watch();
} else {
  await Promise.all(targets.map((options) => build(options)));
}
