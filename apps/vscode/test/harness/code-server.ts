import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { CodeServerInstall } from './code-server-install.js';

/** User settings that keep VS Code 1.139 quiet and offline (no agents, gallery, telemetry or updates). */
const QUIET_SETTINGS = {
  'chat.disableAIFeatures': true,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'window.commandCenter': false,
  // The secondary side bar (chat) would take a third of the screenshots, empty.
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

/** A running code-server. */
export interface CodeServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  host: string;
  /** Its output so far (for a failure message). */
  output(): string;
  stop(): Promise<void>;
}

export interface CodeServerOptions {
  install: CodeServerInstall;
  /** Scratch folder for the user data, extensions, config and data dirs. */
  home: string;
  /** Extra user settings. */
  settings?: Record<string, unknown>;
  /** Environment of the server and so of the extension host. */
  env?: Record<string, string>;
  /** vsix files to install before starting. */
  vsix?: string[];
  /**
   * VS Code's smoke test driver (default on): it lets the page URL load an
   * `extensionTestsPath`, and it also suppresses notification toasts, so a
   * test that looks at the workbench as a user sees it turns it off.
   */
  smokeTestDriver?: boolean;
}

/**
 * Starts code-server on 127.0.0.1 (a free port) with its own user data,
 * extensions, config and data folders (never the home folder), the smoke
 * test driver on (it lets the page URL carry `extensionDevelopmentPath` and
 * `extensionTestsPath`), and waits until `/healthz` answers.
 */
export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const { install, home } = options;
  const dirs = {
    userData: join(home, 'user-data'),
    extensions: join(home, 'extensions'),
    config: join(home, 'config'),
    data: join(home, 'data'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  mkdirSync(join(dirs.userData, 'User'), { recursive: true });
  writeFileSync(
    join(dirs.userData, 'User', 'settings.json'),
    JSON.stringify({ ...QUIET_SETTINGS, ...options.settings }, null, 2),
  );
  const env = {
    ...process.env,
    ...options.env,
    PATH: install.path,
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
  };
  const common = ['--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions];
  for (const vsix of options.vsix ?? []) {
    execFileSync(install.node, [install.entry, ...common, '--install-extension', vsix], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const child = spawn(
    install.node,
    [
      install.entry,
      '--bind-addr',
      host,
      '--auth',
      'none',
      ...common,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      ...(options.smokeTestDriver === false ? [] : ['--vscode-option', 'enable-smoke-test-driver']),
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = `http://${host}`;
  await waitForHealth(url, child, () => output);
  return { url, host, output: () => output, stop: () => stop(child) };
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`code-server did not answer /healthz within 60 s:\n${output()}`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
