// Bundles the extension with esbuild: dist/extension.js (what activation loads), dist/parts.js
// (the rest, loaded on first use) and dist/core.js (the client library, loaded when the first
// client is made); and its integration suite (dist/test/suite/index.js) and the bench's parts
// inside VS Code (dist/bench/host/*.js). CommonJS files, `vscode` left to the extension host. Workspace packages are bundled from their
// TypeScript sources (the `source` export condition), so nothing else needs
// building first. `--watch` rebuilds on change.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build, context } from 'esbuild';

// rxjs's `exports` send the `node` condition to its CommonJS build, which esbuild cannot
// tree-shake: all of rxjs (146 KB of the extension's 190 KB) was evaluated when the bundle
// loaded, most of the activation time. Its ES2015 module build (the `es2015` condition, which
// `node` shadows) tree-shakes to the few operators the extension uses (rxjs has no side effects).
const RXJS_ESM = join(
  dirname(createRequire(import.meta.url).resolve('rxjs/package.json')),
  'dist/esm/index.js',
);
const rxjsEsm = {
  name: 'rxjs-esm',
  setup(builder) {
    builder.onResolve({ filter: /^rxjs$/ }, () => ({ path: RXJS_ESM }));
  },
};

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
  plugins: [rxjsEsm],
};

// `@webdata/core` (with zod and undici, nine tenths of the code) is bundled apart, as
// dist/core.js, and loaded on its first use rather than when the extension activates: the
// extension's imports of it resolve to `require("./core.js")`, each of which is then replaced
// (same length, so the source map stays right) by `__webdataCore`, a proxy defined in the
// banner that requires the module when one of its exports is first read. Exports are read
// when used, never at load (esbuild compiles `import { x }` to reads of `module.x` where `x`
// is used), so nothing loads it before the first connection or run snapshot needs it.
const CORE_REQUIRE = 'require("./core.js")';
const LAZY_CORE = '__webdataCore'.padEnd(CORE_REQUIRE.length, ' ');
const CORE_PROXY = [
  'var __webdataCoreModule, __webdataCoreLoadMs;',
  'var __webdataCore = new Proxy({}, { get(_, key) {',
  '  if (__webdataCoreModule === undefined) {',
  '    var started = performance.now();',
  `    __webdataCoreModule = ${CORE_REQUIRE};`,
  '    __webdataCoreLoadMs = performance.now() - started;',
  '  }',
  '  return __webdataCoreModule[key];',
  '} });',
];
const EXTENSION_BANNER = [
  '"use strict";',
  // Read by extension.ts: how long loading the bundle takes (part of the activation time), and
  // how much of it is the first `require("vscode")`, where the extension host builds this
  // extension's API object (every extension pays that; the bench compares with one that does nothing).
  'var __webdataBundleStart = performance.now();',
  'require("vscode");',
  'var __webdataVscodeMs = performance.now() - __webdataBundleStart;',
].join(' ');
const PARTS_BANNER = ['"use strict";', ...CORE_PROXY].join(' ');

// What activation does not need (src/parts.ts: the commands, the Runs view's tree, store and live
// updates, the connection) is bundled apart too, as dist/parts.js, so that activating the extension
// has the host load and compile a small file: extension.js's dynamic imports of it become a
// `require("./parts.js")` run on first use (with dynamic import() marked unsupported, esbuild
// emits `Promise.resolve().then(() => require(...))` rather than a real import(), which would
// load it through Node's ESM loader instead of the extension host's `require`).
const partsApart = {
  name: 'parts-apart',
  setup(builder) {
    builder.onResolve({ filter: /\/parts\.js$/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: './parts.js', external: true } : undefined,
    );
    // Activation never needs the client: keep it (and its 1 MB) out of extension.js.
    builder.onResolve({ filter: /^@webdata\/core$/ }, (args) => ({
      errors: [{ text: `${args.importer} imports @webdata/core, which activation must not load` }],
    }));
  },
};

/** Points `@webdata/core` of the bundle written to `file` at the lazy proxy (see above). */
const coreApart = (file) => ({
  name: 'core-apart',
  setup(builder) {
    builder.onResolve({ filter: /^@webdata\/core$/ }, () => ({ path: './core.js', external: true }));
    builder.onEnd((result) => {
      if (result.errors.length > 0) return;
      const [banner, ...rest] = readFileSync(file, 'utf8').split('\n');
      const body = rest.join('\n');
      // Only plain `x = require("./core.js")`: a wrapped one (`__toESM(require(...))`) would copy the proxy's no keys.
      const unexpected = body
        .split(CORE_REQUIRE)
        .slice(0, -1)
        .filter((before) => !before.endsWith('='));
      if (unexpected.length > 0) throw new Error(`${file} reads @webdata/core other than by named imports`);
      writeFileSync(file, [banner, body.replaceAll(CORE_REQUIRE, LAZY_CORE)].join('\n'));
    });
  },
});

const targets = [
  {
    ...shared,
    entryPoints: { extension: 'src/extension.ts' },
    outdir: 'dist',
    external: ['vscode'],
    minify: true,
    supported: { 'dynamic-import': false },
    banner: { js: EXTENSION_BANNER },
    plugins: [rxjsEsm, partsApart],
  },
  {
    ...shared,
    entryPoints: { parts: 'src/parts.ts' },
    outdir: 'dist',
    external: ['vscode'],
    minify: true,
    banner: { js: PARTS_BANNER },
    plugins: [rxjsEsm, coreApart('dist/parts.js')],
  },
  {
    ...shared,
    entryPoints: { core: 'src/core-bundle.ts' },
    outdir: 'dist',
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
  {
    ...shared,
    // The bench's parts inside the extension host (bench/host), loaded the same way.
    entryPoints: {
      'bench/host/index': 'bench/host/index.ts',
      'bench/host/activation': 'bench/host/activation.ts',
    },
    outdir: 'dist',
    external: ['vscode'],
  },
];

if (process.argv.includes('--watch')) {
  for (const options of targets) await (await context(options)).watch();
} else {
  await Promise.all(targets.map((options) => build(options)));
}
