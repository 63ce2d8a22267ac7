import type * as vscode from 'vscode';
import type { Connection } from './connection/connection.js';
import type { OutageWatch } from './connection/outage-watch.js';
import type { RunDetailsDocuments } from './documents/run-details-document.js';
import type { ScreenshotFiles } from './documents/screenshot-files.js';
import type { SearchHitDocuments } from './documents/search-hit-document.js';
import type { LiveRuns } from './runs/live-runs.js';
import type { RunsLoader } from './runs/runs-loader.js';
import type { RunsStore } from './runs/runs-store.js';
import type { StartedRuns } from './runs/started-runs.js';
import type { RunsNode, RunsTreeModel } from './tree/runs-tree-model.js';
import type { RunsTreeProvider } from './tree/runs-tree-provider.js';
import type { KeyStatus } from './ui/key-status.js';
import type { Log } from './ui/log.js';
import type { OutageStatus } from './ui/outage-status.js';
import type { RunsStatusBar } from './ui/status-bar.js';

/** What the commands work with: made once, on first need (see `make-services.ts`), handed to every command. */
export interface Services {
  context: vscode.ExtensionContext;
  log: Log;
  connection: Connection;
  store: RunsStore;
  loader: RunsLoader;
  model: RunsTreeModel;
  provider: RunsTreeProvider;
  live: LiveRuns;
  started: StartedRuns;
  statusBar: RunsStatusBar;
  /** The status bar item saying the key in use was refused. */
  keyStatus: KeyStatus;
  /** The status bar item saying the service does not answer, while it does not. */
  outage: OutageStatus;
  /** Checks, while the service does not answer, whether it is back. */
  outageWatch: OutageWatch;
  screenshots: ScreenshotFiles;
  searchHits: SearchHitDocuments;
  runDetails: RunDetailsDocuments;
  treeView: vscode.TreeView<RunsNode>;
}

/**
 * A command: its id (as in package.json) and what it does. One file per
 * command under `commands/`, loaded on first use (`commands/command-loaders.ts`); `extension.ts` registers them all.
 */
export interface Command {
  id: string;
  run(services: Services, ...args: unknown[]): unknown;
}
