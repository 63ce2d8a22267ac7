// Bundles the extension (dist/extension.js) and its integration suite
// (dist/test/suite/index.js) with esbuild: one CommonJS file each, `vscode`
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
  },
  {
    ...shared,
    // The mocha suite runs inside VS Code's extension host; mocha itself is
    // loaded from node_modules (it reads its reporters and options from disk).
    entryPoints: { 'test/suite/index': 'test/suite/index.ts' },
    outdir: 'dist',
    external: ['vscode', 'mocha'],
  },
];

if (process.argv.includes('--watch')) {
  for (const options of targets) await (await context(options)).watch();
} else {
  await Promise.all(targets.map((options) => build(options)));
}
