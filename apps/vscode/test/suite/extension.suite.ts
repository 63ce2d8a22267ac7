import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, isTerminalStatus, type RunLenient, type WebDataClient } from '@webdata/core';
import * as vscode from 'vscode';
import type { WebDataExtension } from '../../src/extension.js';
import type { Services } from '../../src/services.js';
import type { RunsNode } from '../../src/tree/runs-tree-model.js';
import { describeError } from '../../src/ui/log.js';

/** Where the harness put the server, its key, the fixture site and the workspace. */
const env = {
  baseUrl: required('WEBDATA_TEST_BASE_URL'),
  apiKey: required('WEBDATA_TEST_API_KEY'),
  site: required('WEBDATA_TEST_SITE_URL'),
};

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this suite through the test harness`);
  return value;
}

async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 60_000,
) {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value as T;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
}

/** Runs a command that opens a quick pick, accepting what it shows until the command is done. */
async function runAccepting<T>(command: string, ...args: unknown[]): Promise<T> {
  let done = false;
  const result = Promise.resolve(vscode.commands.executeCommand<T>(command, ...args)).finally(() => {
    done = true;
  });
  while (!done) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    if (!done) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  }
  return result;
}

/**
 * An HTTP proxy to `target` on a port of its own, which `close()` takes down (its connections too),
 * as does the first request whose path `goneAt` matches: the service going away mid-action. A request
 * whose path `cutOff` matches has its connection cut, the proxy staying up: the service unreachable for a while.
 */
async function forwardingProxy(
  target: string,
  options: { goneAt?: (path: string) => boolean; cutOff?: (path: string) => boolean } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server = http.createServer((request, response) => {
    if (options.goneAt?.(request.url ?? '')) {
      void close();
      request.socket.destroy();
      return;
    }
    if (options.cutOff?.(request.url ?? '')) {
      request.socket.destroy();
      return;
    }
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: request.url,
        method: request.method,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forward.on('error', () => response.destroy());
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  function close() {
    closed ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closed;
  }
  return { url: `http://127.0.0.1:${port}`, close };
}

export function defineExtensionSuite(): void {
  suite('Web Data extension, against the real server', () => {
    let extension: WebDataExtension;
    let services: Services;
    let client: WebDataClient;
    const tree = () => services.provider;
    const item = (node: RunsNode) => tree().getTreeItem(node);
    const rootNodes = async () => (await tree().getChildren()) ?? [];
    const runNode = async (id: string) => (await rootNodes()).find((node) => node.id === id);
    const storeRun = (id: string) => services.store.get(id);
    const terminal = (id: string) => {
      const run = storeRun(id);
      return run && isTerminalStatus(run.status) ? run : undefined;
    };
    /** Points the extension at `url` and waits until its client talks to it. */
    const pointAt = async (url: string) => {
      await vscode.workspace
        .getConfiguration('webdata')
        .update('serviceAddress', url, vscode.ConfigurationTarget.Global);
      await waitFor(`a client of ${url}`, () =>
        services.connection.hasClient() && services.connection.client().baseUrl.startsWith(url)
          ? true
          : undefined,
      );
    };
    /** Back on the test's service after a test pointed elsewhere: its key set again, the Runs view shown. */
    const backOnService = async () => {
      await pointAt(env.baseUrl);
      await vscode.commands.executeCommand('webdata.setApiKey', env.apiKey);
      await vscode.commands.executeCommand('webdata.runs.focus');
    };

    suiteSetup(async () => {
      client = createClient({ baseUrl: env.baseUrl, apiKey: env.apiKey });
      const installed = vscode.extensions.getExtension<WebDataExtension>('webdata.webdata');
      assert.ok(installed, 'the extension is installed');
      // The address's former setting, as users have it in their settings files: read while the Service
      // Address is not set (pointAt sets that, which is then read first).
      await vscode.workspace
        .getConfiguration('webdata')
        .update('baseUrl', env.baseUrl, vscode.ConfigurationTarget.Global);
      extension = await installed.activate();
      // Activation loads none of the parts: the client library is loaded when they are made.
      assert.equal(extension.clientLoadMs(), undefined, 'activation loaded the client library');
      services = await extension.services();
      await vscode.commands.executeCommand('webdata.setApiKey', env.apiKey);
      assert.equal(typeof extension.clientLoadMs(), 'number', 'connecting loaded the client library');
      await vscode.commands.executeCommand('webdata.runs.focus');
    });

    suiteTeardown(async () => {
      await client?.close();
    });

    test('the tree shows the runs, newest first, with their counts', async () => {
      const older = await client.runs.start({ type: 'crawl', urls: [`${env.site}/product/kettle`] });
      const newer = await client.runs.start({ type: 'crawl', urls: [`${env.site}/product/chair`] });
      await vscode.commands.executeCommand('webdata.runs.refresh');
      const ids = await waitFor('both runs in the tree', async () => {
        const listed = (await rootNodes()).map((node) => node.id);
        return listed.includes(older.id) && listed.includes(newer.id) ? listed : undefined;
      });
      assert.ok(ids.indexOf(newer.id) < ids.indexOf(older.id), 'newest first');
      assert.equal(services.connection.state, 'connected');
      assert.match(String(services.treeView.message), /^Connected to http:\/\/127\.0\.0\.1:\d+/);
      const node = (await runNode(newer.id))!;
      await waitFor('the run to finish in the tree', () => terminal(newer.id));
      const finished = item(node);
      // What the run is and where on its site it went in the label, then how long ago and its counts,
      // the host last: runs of one host are told apart at the default width.
      assert.equal(finished.label, 'Crawl /product/chair');
      assert.match(String(finished.description), /^(just now|\d+ s ago) · 1\/1 · /);
      assert.ok(String(finished.description).endsWith(` · ${new URL(env.site).host}`));
      assert.equal((finished.iconPath as vscode.ThemeIcon).id, 'pass');
      assert.equal(finished.id, newer.id);
    });

    test('an extraction started from a selection reaches completed and its result opens as JSON', async () => {
      const document = await vscode.workspace.openTextDocument(
        vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'products.md'),
      );
      const editor = await vscode.window.showTextDocument(document);
      // The lines of the lamp and the chair, not the kettle's nor the help page's.
      const lamp = document.getText().indexOf('- [Brass');
      const kettle = document.getText().indexOf('- The kettle');
      editor.selection = new vscode.Selection(document.positionAt(lamp), document.positionAt(kettle));

      const created = await runAccepting<RunLenient | undefined>('webdata.extractFromUrls', {
        query: 'the product name and price',
        fields: 'name!:string, price:number',
      });
      assert.ok(created, 'the run was created');
      assert.deepEqual(created.urls, [`${env.site}/product/lamp`, `${env.site}/product/chair`]);
      assert.equal(created.type, 'extract');
      const done = await waitFor('the extraction to complete', () => terminal(created.id));
      assert.equal(done.status, 'completed');
      assert.equal(done.stats?.succeeded, 2);

      const node = (await runNode(created.id))!;
      assert.ok(node, 'the run is in the tree');
      const results = await tree().getChildren(node);
      const lampNode = await waitFor('the lamp result', async () => {
        for (const child of results ?? []) if (item(child).label === 'Brass Desk Lamp') return child;
        return undefined;
      });
      const opened = await vscode.commands.executeCommand<vscode.TextEditor>('webdata.result.open', lampNode);
      assert.equal(opened.document.uri.scheme, 'webdata-result');
      assert.equal(opened.document.languageId, 'json');
      assert.deepEqual(JSON.parse(opened.document.getText()), { name: 'Brass Desk Lamp', price: 49.9 });
      assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.label, 'Brass Desk Lamp.json');
      // The same result reopens the same tab.
      await vscode.commands.executeCommand('webdata.result.open', lampNode);
      const tabsOfResult = vscode.window.tabGroups.all
        .flatMap((group) => group.tabs)
        .filter(
          (tab) =>
            tab.input instanceof vscode.TabInputText &&
            tab.input.uri.toString() === opened.document.uri.toString(),
        );
      assert.equal(tabsOfResult.length, 1);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    test('cancel and retry from the tree', async () => {
      const held = `${env.site}/hold/cancel-me`;
      const created = await vscode.commands.executeCommand<RunLenient | undefined>('webdata.crawlUrls', {
        urls: [held],
        screenshot: false,
      });
      assert.ok(created);
      const node = await waitFor('the run in the tree', () => runNode(created.id));
      await waitFor('the run to be running', () => storeRun(created.id)?.status === 'running');
      assert.match(String(item(node).contextValue), /\bcancelable\b/);
      assert.match(services.statusBar.text, /\b1 run\b|\d+ runs/);

      const cancelled = await vscode.commands.executeCommand<RunLenient>('webdata.run.cancel', node);
      assert.equal(cancelled.status, 'cancelled');
      await waitFor('the tree to show it cancelled', () =>
        /\bretryable\b/.test(String(item(node).contextValue)),
      );
      assert.equal((item(node).iconPath as vscode.ThemeIcon).id, 'circle-slash');

      await fetch(`${env.site}/release`);
      const said: string[] = [];
      const logInfo = services.log.info.bind(services.log);
      services.log.info = (message: string) => {
        said.push(message);
        logInfo(message);
      };
      try {
        const retried = await vscode.commands.executeCommand<RunLenient>('webdata.run.retry', node);
        assert.equal(retried.status, 'queued');
        // Followed like a run started here, in a progress notification (which counts it as started
        // here): before, nothing on screen answered Retry, and a page failing again at once left
        // everything as it was.
        assert.ok(services.started.inFlightIds().includes(created.id), 'the retried run is followed');
        // The view's own watch brings the run to its end: nobody refreshes here.
        await waitFor(
          'the retried run to complete in the tree',
          () => storeRun(created.id)?.status === 'completed',
        );
        assert.equal((item(node).iconPath as vscode.ThemeIcon).id, 'pass');
        // And its end is said, as a started run's is (the message logs what it says).
        const summary = await waitFor("the retried run's end said", () =>
          said.find((message) => message.startsWith('Retry of Crawl')),
        );
        assert.match(summary, /^Retry of Crawl · .* completed: 1\/1 pages succeeded\.$/);
      } finally {
        Reflect.deleteProperty(services.log, 'info');
      }
      await fetch(`${env.site}/hold-again`);
    });

    test('a run followed in a notification and deleted from the tree ends it without an error', async () => {
      const errors: string[] = [];
      const logError = services.log.error.bind(services.log);
      services.log.error = (message: string, error?: unknown) => {
        errors.push(message);
        logError(message, error);
      };
      try {
        const created = await vscode.commands.executeCommand<RunLenient | undefined>('webdata.crawlUrls', {
          urls: [`${env.site}/hold/delete-me`],
          screenshot: false,
        });
        assert.ok(created);
        const node = await waitFor('the run in the tree', () => runNode(created.id));
        await waitFor('the run to be running', () => storeRun(created.id)?.status === 'running');
        assert.equal(
          await vscode.commands.executeCommand('webdata.run.delete', node, { confirm: false }),
          true,
        );
        await waitFor('the notification to stop following it', () =>
          services.started.inFlightIds().includes(created.id) ? undefined : true,
        );
        // Before, the watch's 404 came as an error message: "Lost track of run …: run … not found".
        assert.deepEqual(
          errors.filter((message) => message.includes(created.id)),
          [],
        );
      } finally {
        Reflect.deleteProperty(services.log, 'error');
      }
    });

    test('delete asks first, then removes the run from the tree', async () => {
      const run = await client.runs.start({ type: 'crawl', urls: [`${env.site}/product/lamp`] });
      await vscode.commands.executeCommand('webdata.runs.refresh');
      const node = await waitFor('the run in the tree', () => runNode(run.id));
      assert.equal(
        await vscode.commands.executeCommand('webdata.run.delete', node, { confirm: false }),
        true,
      );
      assert.equal(await runNode(run.id), undefined);
      await assert.rejects(client.runs.get(run.id), /not found/i);
    });

    test('deleted from its row, the run below it takes the focus and the selection', async () => {
      const older = await client.runs.start({ type: 'crawl', urls: [`${env.site}/product/kettle`] });
      const newer = await client.runs.start({ type: 'crawl', urls: [`${env.site}/product/lamp`] });
      await vscode.commands.executeCommand('webdata.runs.focus');
      await vscode.commands.executeCommand('webdata.runs.refresh');
      const node = await waitFor('both runs in the tree', async () =>
        (await runNode(older.id)) ? runNode(newer.id) : undefined,
      );
      assert.equal(
        await vscode.commands.executeCommand('webdata.run.delete', node, { confirm: false }),
        true,
      );
      // Without it the focus went with the row: the next arrow key started again at the top of the view.
      await waitFor('the run below selected', () =>
        services.treeView.selection[0]?.id === older.id ? true : undefined,
      );
      await client.runs.delete(older.id).catch(() => undefined);
    });

    test('Load more… hands its place, focus and selection, to the first run it brought', async () => {
      const ids: string[] = [];
      for (const slug of ['lamp', 'chair', 'kettle']) {
        ids.push((await client.runs.start({ type: 'crawl', urls: [`${env.site}/product/${slug}`] })).id);
      }
      const settings = vscode.workspace.getConfiguration('webdata');
      await settings.update('runs.pageSize', 2, vscode.ConfigurationTarget.Global);
      try {
        await vscode.commands.executeCommand('webdata.runs.focus');
        await vscode.commands.executeCommand('webdata.runs.refresh');
        const more = await waitFor('two runs and Load more', async () => {
          const roots = await rootNodes();
          return roots.length === 3 && roots[2]?.kind === 'more-runs' ? roots[2] : undefined;
        });
        await vscode.commands.executeCommand('webdata.loadMore', more);
        // Newest first: the oldest of the three, the lamp's run, is the first the second page brought.
        await waitFor('the first loaded run selected', () =>
          services.treeView.selection[0]?.id === ids[0] ? true : undefined,
        );
      } finally {
        await settings.update('runs.pageSize', undefined, vscode.ConfigurationTarget.Global);
        await Promise.all(ids.map((id) => client.runs.delete(id).catch(() => undefined)));
        await vscode.commands.executeCommand('webdata.runs.refresh');
      }
    });

    test("a run's details open in a Markdown tab: its request and timings; the same tab again", async () => {
      const run = await client.runs.start({ type: 'crawl', urls: [`${env.site}/product/chair`], limit: 1 });
      await vscode.commands.executeCommand('webdata.runs.refresh');
      const node = await waitFor('the run in the tree', () => runNode(run.id));
      await waitFor('the run to end', () => terminal(run.id));
      const editor = await vscode.commands.executeCommand<vscode.TextEditor>('webdata.run.showDetails', node);
      assert.equal(editor.document.languageId, 'markdown');
      const text = editor.document.getText();
      assert.match(text, /^# Crawl · completed$/m);
      const request = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(text)?.[1] ?? 'null');
      assert.deepEqual(
        { type: request?.type, urls: request?.urls, limit: request?.limit },
        { type: 'crawl', urls: [`${env.site}/product/chair`], limit: 1 },
      );
      assert.match(text, /^\| finished \| \S+ \| took \d/m);
      // The URLs of the extension's own tabs get no "Extract from this URL" lens.
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
        'vscode.executeCodeLensProvider',
        editor.document.uri,
      );
      assert.deepEqual(
        lenses.filter((lens) => lens.command?.command === 'webdata.extractFromUrl'),
        [],
      );

      const again = await vscode.commands.executeCommand<vscode.TextEditor>('webdata.run.showDetails', node);
      assert.equal(again.document.uri.toString(), editor.document.uri.toString());
      const tabs = vscode.window.tabGroups.all
        .flatMap((group) => group.tabs)
        .filter(
          (tab) =>
            tab.input instanceof vscode.TabInputText &&
            tab.input.uri.toString() === editor.document.uri.toString(),
        );
      assert.equal(tabs.length, 1);
      // Named by what the run is (its id is in the text), not by its id.
      assert.equal(tabs[0]?.label, `Crawl · ${new URL(env.site).host} (1 page).md`);
      assert.match(text, new RegExp(`^Run \`${run.id}\`$`, 'm'));
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    test("Deep crawl from URL… offers the URL on the cursor's line, not the file's first", async () => {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      assert.ok(folder, 'the suite runs with the workspace open');
      const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder, 'products.md'));
      const editor = await vscode.window.showTextDocument(document);
      const line = document
        .getText()
        .split('\n')
        .findIndex((text) => text.startsWith('- The chair'));
      editor.selection = new vscode.Selection(line, 0, line, 0);
      // Accepting each box as it is offered: the start page, depth 2, at most 100 pages.
      const created = await runAccepting<RunLenient | undefined>('webdata.deepCrawl');
      assert.ok(created, 'the deep crawl started');
      // Before, the file's first URL (the lamp's) was offered wherever the cursor was.
      assert.deepEqual(created.urls, [`${env.site}/product/chair`]);
      await waitFor('the deep crawl to end', () => terminal(created.id));
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      // Later tests count the deep crawls (the filter's: none).
      await client.runs.delete(created.id);
      await vscode.commands.executeCommand('webdata.runs.refresh');
    });

    test('Go to Result… finds a page of a run by typing part of its title, and opens it', async () => {
      const run = await client.runs.start({
        type: 'crawl',
        urls: [`${env.site}/product/lamp`, `${env.site}/product/chair`],
      });
      await vscode.commands.executeCommand('webdata.runs.refresh');
      const node = await waitFor('the run in the tree', () => runNode(run.id));
      await waitFor('the run to end', () => terminal(run.id));
      const editor = await runAccepting<vscode.TextEditor | undefined>(
        'webdata.run.goToResult',
        node,
        'chair',
      );
      assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.label, 'Oak Reading Chair.md');
      assert.match(editor?.document.getText() ?? '', /Oak Reading Chair/);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    test('an extraction lists its results in the order of the URLs given, not the order they finished', async () => {
      // The lamp is given first and finishes last.
      const urls = [
        `${env.site}/slow/product/lamp?ms=1500`,
        `${env.site}/product/chair`,
        `${env.site}/product/kettle`,
      ];
      const run = await client.runs.start({
        type: 'extract',
        urls,
        query: 'the product name and price',
        schema: {
          type: 'object',
          properties: { name: { type: 'string' }, price: { type: 'number' } },
          required: ['name'],
        },
      });
      await vscode.commands.executeCommand('webdata.runs.refresh');
      const node = await waitFor('the run in the tree', () => runNode(run.id));
      await waitFor('the run to complete', () => storeRun(run.id)?.status === 'completed');
      // The service lists them as they finished: the lamp last.
      const listed = await client.runs.results(run.id).toArray();
      assert.equal(listed.at(-1)?.url, urls[0], `listed as ${listed.map((result) => result.url).join(', ')}`);
      const rows = await waitFor('the three results in the tree', async () => {
        const children = (await tree().getChildren(node)) ?? [];
        return children.length === 3 ? children : undefined;
      });
      assert.deepEqual(
        rows.map((row) => item(row).label),
        ['Brass Desk Lamp', 'Oak Reading Chair', 'Enamel Kettle'],
      );
    });

    test('Save Results… writes every result of a run, in the order of its URLs, as CSV or JSON Lines', async () => {
      const urls = [
        `${env.site}/slow/product/lamp?ms=1500`,
        `${env.site}/product/chair`,
        `${env.site}/missing`,
      ];
      const run = await client.runs.start({
        type: 'extract',
        urls,
        query: 'the product name and price',
        schema: {
          type: 'object',
          properties: { name: { type: 'string' }, price: { type: 'number' } },
          required: ['name'],
        },
      });
      await vscode.commands.executeCommand('webdata.runs.refresh');
      const node = await waitFor('the run in the tree', () => runNode(run.id));
      await waitFor('the run to end', () => terminal(run.id));
      // Not expanded: the view loaded none of its results; the file gets them all from the service.
      assert.equal(services.store.resultsOf(run.id).items.length, 0);
      const folder = vscode.workspace.workspaceFolders![0]!.uri;
      const csvUri = vscode.Uri.joinPath(folder, `saved-${run.id}.csv`);
      // The format pick and the save dialog are out of the extension host's reach: their answers are passed.
      const saved = await vscode.commands.executeCommand<{ count: number; format: string } | undefined>(
        'webdata.run.saveResults',
        node,
        { format: 'csv', uri: csvUri.toString() },
      );
      assert.deepEqual({ count: saved?.count, format: saved?.format }, { count: 3, format: 'csv' });
      // ignoreBOM: keep the byte-order mark (a TextDecoder drops it by default).
      const csv = new TextDecoder('utf-8', { ignoreBOM: true }).decode(
        await vscode.workspace.fs.readFile(csvUri),
      );
      const lines = csv.split('\r\n');
      assert.equal(lines[0], '\uFEFFurl,status,title,error,data.name,data.price');
      assert.equal(lines[1], `${urls[0]},succeeded,Brass Desk Lamp,,Brass Desk Lamp,49.9`);
      assert.equal(lines[2], `${urls[1]},succeeded,Oak Reading Chair,,Oak Reading Chair,189`);
      assert.match(lines[3] ?? '', new RegExp(`^${urls[2]},failed,,HTTP 404 .*\\(http_error\\),,$`));
      assert.equal(lines[4], '');
      assert.equal(lines.length, 5);

      // From the command palette: it asks for the run (the newest is first), and the extension of the
      // file chosen decides the format.
      const jsonlUri = vscode.Uri.joinPath(folder, `saved-${run.id}.jsonl`);
      const fromPalette = await runAccepting<{ count: number; format: string } | undefined>(
        'webdata.run.saveResults',
        undefined,
        { format: 'json', uri: jsonlUri.toString() },
      );
      assert.equal(fromPalette?.format, 'jsonl');
      const records = new TextDecoder()
        .decode(await vscode.workspace.fs.readFile(jsonlUri))
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { url: string; run_id: string; data: unknown });
      assert.deepEqual(
        records.map((record) => record.url),
        urls,
      );
      assert.deepEqual(records[0]?.data, { name: 'Brass Desk Lamp', price: 49.9 });
      assert.ok(records.every((record) => record.run_id === run.id));
    });

    test("Save Results… of a crawl carries each page's Markdown: a content field in JSON Lines, a column in CSV", async () => {
      // The large page (~2 MB of Markdown) too: its content comes from the results list, put aside a page at a time.
      const urls = [`${env.site}/product/kettle`, `${env.site}/large`, `${env.site}/product/lamp`];
      const run = await client.runs.start({ type: 'crawl', urls });
      await waitFor('the crawl to end', async () => {
        const current = await client.runs.get(run.id);
        return isTerminalStatus(current.status) ? current : undefined;
      });
      const folder = vscode.workspace.workspaceFolders![0]!.uri;
      const jsonlUri = vscode.Uri.joinPath(folder, `crawl-${run.id}.jsonl`);
      const saved = await vscode.commands.executeCommand<{ count: number } | undefined>(
        'webdata.run.saveResults',
        run.id,
        { format: 'jsonl', uri: jsonlUri.toString() },
      );
      assert.equal(saved?.count, 3);
      const records = new TextDecoder()
        .decode(await vscode.workspace.fs.readFile(jsonlUri))
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { url: string; content?: unknown });
      assert.deepEqual(
        records.map((record) => record.url),
        urls,
      );
      const expected = await Promise.all(
        records.map(async (record) => {
          const result = (await client.runs.resultsPage(run.id, { limit: 10 })).data.find(
            (item) => item.url === record.url,
          );
          return (await client.runs.content(run.id, result!.id, { format: 'markdown' })).content;
        }),
      );
      assert.match(String(records[0]?.content), /Handmade, shipped in two days\./);
      assert.ok(String(records[1]?.content).length > 1_000_000, "the large page's Markdown whole");
      assert.deepEqual(
        records.map((record) => record.content),
        expected,
      );

      const csvUri = vscode.Uri.joinPath(folder, `crawl-${run.id}.csv`);
      const savedCsv = await vscode.commands.executeCommand<{ cutCells: number } | undefined>(
        'webdata.run.saveResults',
        run.id,
        { format: 'csv', uri: csvUri.toString() },
      );
      // The large page's Markdown is longer than an Excel cell holds: cut there, saying so.
      assert.equal(savedCsv?.cutCells, 1);
      // ignoreBOM: keep the byte-order mark (a TextDecoder drops it by default).
      const csv = new TextDecoder('utf-8', { ignoreBOM: true }).decode(
        await vscode.workspace.fs.readFile(csvUri),
      );
      assert.ok(csv.startsWith('\uFEFFurl,status,title,error,content\r\n'), csv.slice(0, 80));
      // The kettle's row: its Markdown whole in the last column, quoted as RFC 4180 says.
      const kettle = `${urls[0]},succeeded,Enamel Kettle,,"${String(expected[0]).replaceAll('"', '""')}"\r\n`;
      assert.ok(csv.includes(kettle), csv.slice(0, 400));
      const large = csv.slice(csv.indexOf(`${urls[1]},`));
      const cell = /^[^"]*"((?:[^"]|"")*)"\r\n/.exec(large)?.[1]?.replaceAll('""', '"') ?? '';
      assert.equal(cell.length, 32_767);
      assert.match(
        cell,
        /\[Cut here: Excel holds 32,767 characters a cell, this one had [\d,]+\. Save the results as JSON or JSON Lines for all of it\.\]$/,
      );
    });

    test('Save Results… of a large run (450 pages: three pages of the results list) writes every one, with its content', async function () {
      // The deep crawl takes a while on a loaded machine.
      this.timeout(300_000);
      // A site of its own, each page linking four more, answering at once: a deep crawl of 450 pages.
      const site = http.createServer((request, response) => {
        const page = Number(/\/t\/(\d+)/.exec(request.url ?? '')?.[1] ?? 0);
        const links = [1, 2, 3, 4].map((k) => `<a href="/t/${page * 4 + k}">page ${page * 4 + k}</a>`);
        const text = `<p>Page ${page} says: ${'tree, "quoted", text '.repeat(40)}</p>`;
        response.writeHead(request.url === '/robots.txt' ? 404 : 200, { 'content-type': 'text/html' });
        response.end(
          `<title>Tree page ${page}</title><h1>Tree page ${page}</h1>${text}<p>${links.join(' ')}</p>`,
        );
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      try {
        const run = await client.runs.start({
          type: 'deep-crawl',
          url: `${siteUrl}/t/0`,
          limit: 450,
          max_depth: 6,
          use_sitemap: false,
        });
        const done = await waitFor(
          'the deep crawl to end',
          async () => {
            const current = await client.runs.get(run.id);
            return isTerminalStatus(current.status) ? current : undefined;
          },
          240_000,
        );
        assert.equal(done.stats?.succeeded, 450);
        // What the service lists, read here page by page with the contents.
        const listed: { url?: string | undefined; content?: unknown }[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.runs.resultsPage(run.id, { limit: 200, cursor, content: 'markdown' });
          listed.push(...page.data);
          cursor = page.next_cursor ?? undefined;
        } while (cursor);
        assert.equal(listed.length, 450);

        const folder = vscode.workspace.workspaceFolders![0]!.uri;
        const jsonlUri = vscode.Uri.joinPath(folder, `large-${run.id}.jsonl`);
        const saved = await vscode.commands.executeCommand<{ count: number } | undefined>(
          'webdata.run.saveResults',
          run.id,
          { format: 'jsonl', uri: jsonlUri.toString() },
        );
        assert.equal(saved?.count, 450);
        const records = new TextDecoder()
          .decode(await vscode.workspace.fs.readFile(jsonlUri))
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line) as { url: string; run_id: string; content?: unknown });
        // A deep crawl was given no URLs to order by: the service's order, every page once, each with its Markdown.
        assert.deepEqual(
          records.map((record) => record.url),
          listed.map((result) => result.url),
        );
        assert.equal(new Set(records.map((record) => record.url)).size, 450);
        assert.deepEqual(
          records.map((record) => record.content),
          listed.map((result) => result.content),
        );
        assert.ok(records.every((record) => record.run_id === run.id));
        assert.match(String(records[0]?.content), /# Tree page 0/);

        const csvUri = vscode.Uri.joinPath(folder, `large-${run.id}.csv`);
        await vscode.commands.executeCommand('webdata.run.saveResults', run.id, {
          format: 'csv',
          uri: csvUri.toString(),
        });
        const csv = new TextDecoder('utf-8', { ignoreBOM: true }).decode(
          await vscode.workspace.fs.readFile(csvUri),
        );
        assert.ok(csv.startsWith('\uFEFFurl,status,title,error,content\r\n'), csv.slice(0, 80));
        // Every page a row (quoted contents hold line breaks: count the rows by their start).
        const rows = csv.split('\r\n').filter((line) => line.startsWith(`${siteUrl}/t/`));
        assert.equal(rows.length, 450);
        assert.deepEqual(
          rows.map((row) => row.slice(0, row.indexOf(','))),
          listed.map((result) => result.url),
        );
        // Nothing left beside the files: each was written beside itself and renamed.
        const names = (await vscode.workspace.fs.readDirectory(folder)).map(([name]) => name);
        assert.deepEqual(names.filter((name) => name.includes(run.id)).sort(), [
          `large-${run.id}.csv`,
          `large-${run.id}.jsonl`,
        ]);
        assert.deepEqual(
          names.filter((name) => name.endsWith('.part')),
          [],
        );
        await client.runs.delete(run.id);
      } finally {
        site.closeAllConnections();
        await new Promise((resolve) => site.close(resolve));
      }
    });

    test('Open All Results of many pages, answered Go to Result…, opens the pick of that run instead of tabs', async () => {
      // Eleven pages: more than Open All Results opens without asking.
      const urls = Array.from({ length: 11 }, (_, index) => `${env.site}/product/chair?copy=${index}`);
      const run = await client.runs.start({ type: 'crawl', urls, limit: urls.length });
      await vscode.commands.executeCommand('webdata.runs.refresh');
      const node = await waitFor('the run in the tree', () => runNode(run.id));
      await waitFor('the run to complete', () => storeRun(run.id)?.status === 'completed');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      // The modal question is out of the extension host's reach: its answer is passed.
      const opened = await runAccepting<vscode.TextEditor[]>('webdata.run.openAllResults', node, {
        answer: 'Go to Result…',
      });
      // No tab of its own: the one page chosen in Go to Result…'s pick of this run is open, alone.
      assert.deepEqual(opened, []);
      assert.deepEqual(
        vscode.window.tabGroups.all.flatMap((group) => group.tabs).map((tab) => tab.label),
        ['Oak Reading Chair.md'],
      );
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    test('Run Again starts a new run with the same request, and the view follows it', async () => {
      const run = await client.runs.start({ type: 'crawl', urls: [`${env.site}/product/lamp`], limit: 1 });
      await vscode.commands.executeCommand('webdata.runs.refresh');
      const node = await waitFor('the run in the tree', () => runNode(run.id));
      await waitFor('the run to end', () => terminal(run.id));
      assert.match(String(item(node).contextValue), /\brerunnable\b/);
      const again = await vscode.commands.executeCommand<RunLenient | undefined>(
        'webdata.run.runAgain',
        node,
      );
      assert.ok(again, 'a new run was started');
      assert.notEqual(again.id, run.id);
      assert.equal(again.type, 'crawl');
      assert.deepEqual(again.urls, [`${env.site}/product/lamp`]);
      assert.deepEqual(again.params, (await client.runs.get(run.id)).params);
      await waitFor('the new run to complete in the tree', () => storeRun(again.id)?.status === 'completed');
    });

    test('a large page opens as a Markdown document', async () => {
      const created = await vscode.commands.executeCommand<RunLenient | undefined>('webdata.crawlUrls', {
        urls: [`${env.site}/large`],
        screenshot: false,
      });
      assert.ok(created);
      await waitFor('the crawl to complete', () => storeRun(created.id)?.status === 'completed');
      const [resultNode] = (await tree().getChildren(await runNode(created.id))) ?? [];
      const opened = await vscode.commands.executeCommand<vscode.TextEditor>(
        'webdata.result.open',
        resultNode,
      );
      assert.equal(opened.document.languageId, 'markdown');
      assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.label, 'A Very Long Page.md');
      assert.ok(opened.document.getText().length > 1_000_000, 'the whole page');
      assert.ok(opened.document.getText().includes('Section 400'));
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    test('URLs in a file get an "Extract from this URL" lens', async () => {
      const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'products.md');
      await vscode.window.showTextDocument(uri);
      const lenses = await waitFor('lenses', async () => {
        const found = await vscode.commands.executeCommand<vscode.CodeLens[]>(
          'vscode.executeCodeLensProvider',
          uri,
        );
        return found.length > 0 ? found : undefined;
      });
      const ours = lenses.filter((lens) => lens.command?.command === 'webdata.extractFromUrl');
      assert.deepEqual(
        ours.map((lens) => lens.command?.arguments?.[0]),
        [
          [`${env.site}/product/lamp`],
          [`${env.site}/product/chair`],
          [`${env.site}/slow/product/kettle`],
          [`${env.site}/help`],
        ],
      );
      assert.equal(ours[0]?.command?.title, 'Extract from this URL');
      // Crawl and Deep crawl beside it, on the same line, with the same URL.
      const first = lenses.filter((lens) => lens.range.isEqual(ours[0]!.range));
      assert.deepEqual(
        first.map((lens) => [lens.command?.command, lens.command?.title, lens.command?.arguments?.[0]]),
        [
          ['webdata.extractFromUrl', 'Extract from this URL', [`${env.site}/product/lamp`]],
          ['webdata.crawlUrls', 'Crawl', { urls: [`${env.site}/product/lamp`] }],
          ['webdata.deepCrawl', 'Deep crawl', { url: `${env.site}/product/lamp` }],
        ],
      );
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    test('configuration files get no lens: VS Code opens them as JSON with Comments', async () => {
      const folder = vscode.workspace.workspaceFolders![0]!.uri;
      const write = async (path: string, text: string) => {
        const uri = vscode.Uri.joinPath(folder, path);
        await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
        return uri;
      };
      const lensesOf = async (uri: vscode.Uri) =>
        (
          await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)
        ).filter((lens) => lens.command?.command === 'webdata.extractFromUrl');
      const settings = await write(
        '.vscode/settings.json',
        `{\n  // the docs this workspace is about (a setting of some other extension)\n  "docs.site": "${env.site}/help"\n}\n`,
      );
      const launch = await write(
        '.vscode/launch.json',
        `{ "version": "0.2.0", "configurations": [{ "type": "chrome", "request": "launch", "name": "Site", "url": "${env.site}/help" }] }\n`,
      );
      const pages = await write('pages.json', `["${env.site}/product/lamp"]\n`);
      try {
        for (const uri of [settings, launch]) {
          const document = await vscode.workspace.openTextDocument(uri);
          assert.equal(document.languageId, 'jsonc', `${uri.path} opens as JSON with Comments`);
          assert.deepEqual(await lensesOf(uri), [], `no lens in ${uri.path}`);
        }
        // A JSON file of one's own still gets them.
        await vscode.workspace.openTextDocument(pages);
        const ours = await waitFor('the lens in pages.json', async () => {
          const found = await lensesOf(pages);
          return found.length > 0 ? found : undefined;
        });
        assert.deepEqual(ours[0]?.command?.arguments?.[0], [`${env.site}/product/lamp`]);
      } finally {
        for (const uri of [settings, launch, pages]) await vscode.workspace.fs.delete(uri);
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      }
    });

    test('a chosen search hit opens its whole document, and reopens the same tab', async () => {
      // Crawled into the default collection, as the crawl command does (one collection: no pick).
      const crawled = await client.runs.start({ type: 'crawl', urls: [`${env.site}/product/lamp`] });
      await waitFor('the crawl to finish', async () => {
        const run = await client.runs.get(crawled.id);
        return isTerminalStatus(run.status) ? run : undefined;
      });
      const { data: collections } = await client.collections.list();
      assert.deepEqual(
        collections.map((c) => c.name),
        ['default'],
      );
      const [hit] = (await client.search({ query: 'brass desk lamp', collection: 'default' })).data;
      assert.equal(hit?.url, `${env.site}/product/lamp`);
      const whole = await client.collections.document('default', hit!.document_id!);

      // What the quick pick does with the hit the user chooses.
      const opened = await services.searchHits.open(hit!, 'brass desk lamp', 'default');
      assert.equal(opened.document.uri.scheme, 'webdata-document');
      assert.equal(opened.document.languageId, 'markdown');
      assert.equal(opened.document.getText(), whole.content);
      assert.match(opened.document.getText(), /^# Brass Desk Lamp$/m);
      // The whole page, not the passage a hit carries.
      assert.ok(opened.document.getText().includes('Handmade, shipped in two days.'));
      assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.label, 'Brass Desk Lamp.md');

      const again = await services.searchHits.open(hit!, 'brass desk lamp', 'default');
      assert.equal(again.document.uri.toString(), opened.document.uri.toString());
      const tabsOfDocument = vscode.window.tabGroups.all
        .flatMap((group) => group.tabs)
        .filter(
          (tab) =>
            tab.input instanceof vscode.TabInputText &&
            tab.input.uri.toString() === opened.document.uri.toString(),
        );
      assert.equal(tabsOfDocument.length, 1);

      // The hit's passage is selected and in view, as a search result opens at its line.
      const later = (await client.search({ query: 'shipped in two days', collection: 'default' })).data.find(
        (each) => each.url === hit!.url,
      );
      const atPassage = await services.searchHits.open(later!, 'shipped in two days', 'default');
      assert.equal(atPassage.document.uri.toString(), opened.document.uri.toString());
      assert.ok(atPassage.selection.start.line > 0, 'the selection starts below the title');
      assert.match(atPassage.document.getText(atPassage.selection), /shipped in two days/);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    test('runs in flight that keep changing cost the visible view at most 2 requests a second', async () => {
      // A site whose pages answer after 150 ms, each linking four more: deep crawls that change
      // their counts several times a second for as long as the test looks (the bench's runs in
      // flight are held still, which costs next to nothing).
      const site = http.createServer((request, response) => {
        const page = Number(/\/p\/(\d+)/.exec(request.url ?? '')?.[1] ?? 0);
        const links = [1, 2, 3, 4].map((k) => `<a href="/p/${page * 4 + k}">page ${page * 4 + k}</a>`);
        setTimeout(() => {
          response.writeHead(200, { 'content-type': 'text/html' });
          response.end(`<title>Busy page ${page}</title><h1>Busy page ${page}</h1><p>${links.join(' ')}</p>`);
        }, 150);
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      const ids: string[] = [];
      try {
        for (let i = 0; i < 20; i++) {
          const run = await client.runs.start({
            type: 'deep-crawl',
            url: `${siteUrl}/p/${1000 + i * 10}`,
            limit: 200,
            max_depth: 6,
            use_sitemap: false,
          });
          ids.push(run.id);
        }
        await vscode.commands.executeCommand('webdata.runs.refresh');
        await waitFor('the busy runs watched', () =>
          ids.every((id) => storeRun(id) !== undefined) ? true : undefined,
        );
        const extensionClient = services.connection.client();
        let changes = 0;
        const counting = services.store.changes$.subscribe(() => {
          changes += 1;
        });
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const before = extensionClient.requestCount;
        const seconds = 10;
        await new Promise((resolve) => setTimeout(resolve, seconds * 1_000));
        const sent = extensionClient.requestCount - before;
        counting.unsubscribe();
        const stillBusy = (await client.runs.list({ ids, limit: 20 })).data.filter(
          (run) => !isTerminalStatus(run.status),
        ).length;
        assert.ok(stillBusy > 0, 'the busy runs were all over before the view was counted');
        assert.ok(changes > seconds * 2, `the runs changed only ${changes} times in ${seconds} s`);
        assert.ok(sent <= seconds * 2, `${sent} requests in ${seconds} s (${changes} changes seen)`);
      } finally {
        await Promise.all(ids.map((id) => client.runs.delete(id).catch(() => undefined)));
        site.closeAllConnections();
        await new Promise((resolve) => site.close(resolve));
      }
    });

    test('a run whose counts change every 100 ms is redrawn as they change, not once they stop', async () => {
      const created = await client.runs.start({ type: 'crawl', urls: [`${env.site}/product/lamp`] });
      await vscode.commands.executeCommand('webdata.runs.focus');
      await vscode.commands.executeCommand('webdata.runs.refresh');
      await waitFor('the run listed and ended', async () =>
        (await runNode(created.id)) && terminal(created.id) ? true : undefined,
      );
      const node = (await runNode(created.id))!;
      const base = storeRun(created.id)!;
      const provider = services.provider;
      // VS Code asks for a node's tree item when it redraws it: each ask is one redraw drawn.
      const drawn: number[] = [];
      const getTreeItem = provider.getTreeItem.bind(provider);
      provider.getTreeItem = (asked: RunsNode) => {
        if (asked === node) drawn.push(Date.now());
        return getTreeItem(asked);
      };
      try {
        // As the snapshots of a crawl of hundreds of pages come: its counts move every 100 ms for 3 s.
        const start = Date.now();
        for (let i = 1; i <= 30; i++) {
          services.store.applySnapshot({
            ...base,
            updated_at: new Date(Date.parse(base.updated_at ?? base.created_at) + i).toISOString(),
            stats: {
              total: 300,
              queued: 300 - 10 * i,
              running: 0,
              succeeded: 10 * i,
              failed: 0,
              cancelled: 0,
            },
          });
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const during = drawn.filter((at) => at >= start && at < start + 3_000);
        // VS Code waits for 200 ms without a change before it redraws: fired at every change, none was drawn.
        assert.ok(during.length >= 5, `redrawn ${during.length} times in 3 s of changes every 100 ms`);
      } finally {
        Reflect.deleteProperty(provider, 'getTreeItem');
        await client.runs.delete(created.id).catch(() => undefined);
      }
    });

    test('a search whose service goes away says so, and the Runs view learns of it', async () => {
      // The collections are listed, then the service goes away as the search is sent.
      const proxy = await forwardingProxy(env.baseUrl, {
        goneAt: (path) => path.startsWith('/api/v1/search'),
      });
      // With the Runs view hidden, nothing else asks the service: only the search can tell the connection.
      await vscode.commands.executeCommand('workbench.view.explorer');
      try {
        await pointAt(proxy.url);
        services.connection.reportSuccess();
        assert.equal(services.connection.state, 'connected');
        const searching = vscode.commands.executeCommand('webdata.searchCollection', 'brass lamp');
        // The search's failure reached the connection (it was not told: the view kept "connected").
        await waitFor('the connection to say no service answers', () =>
          services.connection.state === 'unreachable' ? true : undefined,
        );
        await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
        assert.equal(await searching, undefined);
      } finally {
        await proxy.close();
        await backOnService();
      }
    });

    test('Enter on the line of a failed search searches again, and a hit then opens', async () => {
      // Searches cannot reach the service until it is back (a restart); everything else goes through.
      let unreachable = true;
      const proxy = await forwardingProxy(env.baseUrl, {
        cutOff: (path) => unreachable && path.startsWith('/api/v1/search'),
      });
      // With the Runs view hidden, only the search tells the connection how the service is.
      await vscode.commands.executeCommand('workbench.view.explorer');
      try {
        await pointAt(proxy.url);
        services.connection.reportSuccess();
        const searching = Promise.resolve(
          vscode.commands.executeCommand<vscode.TextEditor | undefined>(
            'webdata.searchCollection',
            'brass lamp',
          ),
        );
        // Enter (on the collection, should there be several) until the search has failed and says so.
        await waitFor('the search to fail', async () => {
          if (services.connection.state === 'unreachable') return true;
          await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
          await new Promise((resolve) => setTimeout(resolve, 300));
          return undefined;
        });
        unreachable = false;
        // Enter on "No Web Data service answers at …": the same query is searched again, and answered.
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        await waitFor('the search again to be answered', () =>
          services.connection.state === 'connected' ? true : undefined,
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
        // Enter on the first hit opens its document.
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        const editor = await Promise.race([
          searching,
          new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), 15_000)),
        ]);
        assert.ok(editor !== 'still open', 'Enter on a hit after searching again opened nothing');
        assert.ok(editor, 'the search ended without opening a hit');
        assert.match(editor.document.getText(), /lamp/i);
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      } finally {
        await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
        await proxy.close();
        await backOnService();
      }
    });

    test('a failed result shows why it failed in one click', async () => {
      const said: string[] = [];
      const logInfo = services.log.info.bind(services.log);
      services.log.info = (message: string) => {
        said.push(message);
        logInfo(message);
      };
      let created: RunLenient | undefined;
      try {
        created = await vscode.commands.executeCommand<RunLenient | undefined>('webdata.crawlUrls', {
          urls: [`${env.site}/no-such-page`],
          screenshot: false,
        });
        assert.ok(created);
        const id = created.id;
        await waitFor('the crawl to end', () => terminal(id));
        // Its end is said with what mends a missing page, not Retry, which would fail the same way.
        const offered = await waitFor('the failed run said', () =>
          said.find((message) => message.startsWith(`run ${id} failed; offered: `)),
        );
        assert.equal(offered, `run ${id} failed; offered: Open Page, Copy URL, Show in Runs`);
        // Nor does its row offer Retry, once its failed page is read (drawing the row reads it):
        // every failed run's row had a Retry button.
        const row = await waitFor('the run in the tree', () => runNode(id));
        item(row);
        await waitFor("the run's failed pages read", () => services.store.failedPagesOf(id));
        assert.doesNotMatch(String(item(row).contextValue), /\bretryable\b/);
        assert.match(String(item(row).contextValue), /\brerunnable\b/);
      } finally {
        Reflect.deleteProperty(services.log, 'info');
      }
      const [failed] = (await tree().getChildren(await runNode(created.id))) ?? [];
      assert.ok(failed, 'the failed result is listed');
      const clicked = item(failed).command;
      assert.equal(clicked?.command, 'webdata.result.showFailure');
      assert.match(String(item(failed).contextValue), /\bfailed\b/);
      const shown = await vscode.commands.executeCommand<string>(
        clicked.command,
        ...(clicked.arguments ?? []),
      );
      const page = `${env.site.replace('http://', '')}/no-such-page`;
      // A missing page would fail the same way run again: the message says what to do instead (no Retry Run).
      assert.equal(
        shown,
        `${page} failed: HTTP 404 (http_error). No page is at this address: check the URL.`,
      );
      // Its address, copied from its context menu (as for any result).
      assert.equal(
        await vscode.commands.executeCommand('webdata.result.copyUrl', failed),
        `${env.site}/no-such-page`,
      );
      assert.equal(await vscode.env.clipboard.readText(), `${env.site}/no-such-page`);
    });

    test('the filter is said in the view, and one matching no run offers to clear it', async () => {
      await vscode.commands.executeCommand('webdata.runs.filterByType', 'deep-crawl');
      // VS Code does not draw the view's description (where the filter also goes): the message says it.
      assert.equal(
        services.treeView.message,
        `No deep crawl runs at ${env.baseUrl}: Clear Filter shows every run.`,
      );
      const rows = await rootNodes();
      assert.deepEqual(
        rows.map((node) => [item(node).label, item(node).command?.command]),
        [['Clear Filter', 'webdata.runs.clearFilter']],
      );
      await vscode.commands.executeCommand('webdata.runs.clearFilter');
      await vscode.commands.executeCommand('webdata.runs.filterByStatus', 'completed');
      assert.ok((await rootNodes()).some((node) => node.kind === 'run'));
      assert.equal(services.treeView.message, `Connected to ${env.baseUrl}, showing completed runs only`);
      await vscode.commands.executeCommand('webdata.runs.clearFilter');
      assert.ok((await rootNodes()).some((node) => node.kind === 'run'));
      assert.equal(services.treeView.message, `Connected to ${env.baseUrl}`);
    });

    test('a key set while the Runs view is hidden is tried at once: the connection says if it was taken', async () => {
      // Nothing else asks the service while the view is hidden (the walkthrough's Set API key…, say):
      // the state stayed 'connecting', and the walkthrough's service step unticked, until the view opened.
      await vscode.commands.executeCommand('workbench.view.explorer');
      try {
        await vscode.commands.executeCommand('webdata.setApiKey', 'wd_not_a_key');
        assert.equal(services.connection.state, 'unauthorized');
        await vscode.commands.executeCommand('webdata.setApiKey', env.apiKey);
        assert.equal(services.connection.state, 'connected');
      } finally {
        await vscode.commands.executeCommand('webdata.runs.focus');
      }
    });

    test('a wrong key says so, without asking again and again, and the right one reconnects', async () => {
      await vscode.commands.executeCommand('webdata.setApiKey', 'wd_not_a_key');
      // No run: the view's message names the service, its rows are what to do.
      assert.deepEqual(
        (await rootNodes()).map((node) => item(node).label),
        ['Set API Key…', 'Change the Address…'],
      );
      assert.equal(services.connection.state, 'unauthorized');
      assert.equal(services.treeView.message, `The Web Data service at ${env.baseUrl} refused the API key.`);
      // Each failed listing redraws the view: listing again on every redraw sent requests without end.
      let listChanges = 0;
      const counting = services.store.changes$.subscribe((change) => {
        if (change.scope === 'list') listChanges += 1;
      });
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      counting.unsubscribe();
      assert.ok(listChanges <= 2, `the view listed again ${listChanges} times in 2 s`);
      await vscode.commands.executeCommand('webdata.setApiKey', env.apiKey);
      assert.ok((await rootNodes()).some((node) => node.kind === 'run'));
      assert.equal(services.connection.state, 'connected');
    });

    test('a refused key is said by the status bar until a key is taken, also when an action met it', async () => {
      await vscode.commands.executeCommand('webdata.setApiKey', 'wd_not_a_key');
      assert.equal(services.connection.state, 'unauthorized');
      assert.equal(services.keyStatus.visible, true, 'the status bar says the key was refused');
      await vscode.commands.executeCommand('webdata.setApiKey', env.apiKey);
      assert.equal(services.keyStatus.visible, false, 'still said once the good key was taken');

      // A key changed elsewhere (another window) while the view is hidden (nothing lists): not tried yet,
      // nothing said; an action it is refused for says so in the status bar at once, as the view would.
      const run = await client.runs.start({ type: 'crawl', urls: [`${env.site}/product/lamp`] });
      await vscode.commands.executeCommand('workbench.view.explorer');
      await services.context.secrets.store('webdata.apiKey', 'wd_not_a_key_either');
      await waitFor('the connection to take the changed key', () =>
        services.connection.state === 'connecting' ? true : undefined,
      );
      assert.equal(services.keyStatus.visible, false);
      await vscode.commands.executeCommand('webdata.run.saveResults', run.id, {
        format: 'json',
        uri: vscode.Uri.joinPath(
          vscode.workspace.workspaceFolders![0]!.uri,
          `refused-${run.id}.json`,
        ).toString(),
      });
      await waitFor(
        'the status bar to say the key was refused',
        () => services.keyStatus.visible || undefined,
      );
      await vscode.commands.executeCommand('webdata.setApiKey', env.apiKey);
      assert.equal(services.keyStatus.visible, false);
      assert.equal(services.connection.state, 'connected');
      await vscode.commands.executeCommand('webdata.runs.focus');
    });

    test('a 429 (too many refused keys from this address) says to wait', async () => {
      await vscode.commands.executeCommand('webdata.setApiKey', 'wd_not_a_key');
      // Refused keys from one address past a burst get 429 until the rate drops: keep them coming.
      let flooding = true;
      const flood = (async () => {
        while (flooding) {
          await fetch(`${env.baseUrl}/api/v1/runs`, { headers: { 'x-api-key': 'wd_not_a_key' } });
        }
      })();
      try {
        await waitFor('the service to ask to wait', async () => {
          const answer = await fetch(`${env.baseUrl}/api/v1/runs`, {
            headers: { 'x-api-key': 'wd_not_a_key' },
          });
          return answer.status === 429;
        });
        // A listing may slip in on a token the flood left (401): try again until one is held back.
        await waitFor('the view to say it is asked to wait', async () => {
          await vscode.commands.executeCommand('webdata.runs.refresh');
          await rootNodes();
          return services.connection.state === 'rateLimited';
        });
        assert.equal(
          services.treeView.message?.startsWith(`The Web Data service at ${env.baseUrl} asks to wait:`),
          true,
          String(services.treeView.message),
        );
      } finally {
        flooding = false;
        await flood;
        // A valid key is never held back.
        await vscode.commands.executeCommand('webdata.setApiKey', env.apiKey);
      }
      await waitFor('the view connected again', async () =>
        (await rootNodes()).some((node) => node.kind === 'run') && services.connection.state === 'connected'
          ? true
          : undefined,
      );
    });

    test('Refresh Runs with the service down keeps the runs listed, marked stale', async () => {
      // The service behind a proxy this test can take down.
      const proxy = await forwardingProxy(env.baseUrl);
      try {
        await vscode.workspace
          .getConfiguration('webdata')
          .update('serviceAddress', proxy.url, vscode.ConfigurationTarget.Global);
        const listed = await waitFor('runs listed through the proxy', async () => {
          const nodes = (await rootNodes()).filter((node) => node.kind === 'run');
          const throughProxy = services.connection.client().baseUrl.startsWith(proxy.url);
          return throughProxy && services.store.listState.state === 'loaded' && nodes.length > 0
            ? nodes
            : undefined;
        });
        await proxy.close();
        await vscode.commands.executeCommand('webdata.runs.refresh');
        await waitFor('the listing to fail', async () => {
          await rootNodes();
          return services.store.listState.state === 'error';
        });
        assert.deepEqual(
          (await rootNodes()).filter((node) => node.kind === 'run').map((node) => node.id),
          listed.map((node) => node.id),
        );
        assert.equal(services.connection.state, 'unreachable');
        assert.equal(services.treeView.message, `Lost the connection to ${proxy.url}: retrying…`);
        // The status bar says it too, and /healthz is checked after 2 s (backing off) until it answers.
        assert.equal(services.outage.visible, true);
        const since = services.outageWatch.outage?.since ?? 0;
        await waitFor('a /healthz check', () => (services.outageWatch.outage?.checks ?? 0) >= 1, 10_000);
        assert.ok(Date.now() - since >= 1_900, 'checked before 2 s');
      } finally {
        await proxy.close();
        await vscode.workspace
          .getConfiguration('webdata')
          .update('serviceAddress', env.baseUrl, vscode.ConfigurationTarget.Global);
      }
      await waitFor('the view back on the service', async () =>
        services.connection.baseUrl === env.baseUrl && (await rootNodes()).some((node) => node.kind === 'run')
          ? true
          : undefined,
      );
      // The runs stayed listed, so the wait above may end before the connection is made anew: the item goes then.
      await waitFor('the status bar item gone', () => (services.outage.visible ? undefined : true), 10_000);
    });

    test('with no service at the address and no run listed, the view names the address in full and offers what to do', async () => {
      // A port nothing listens on: the proxy's, once closed.
      const proxy = await forwardingProxy(env.baseUrl);
      await proxy.close();
      try {
        await vscode.workspace
          .getConfiguration('webdata')
          .update('serviceAddress', proxy.url, vscode.ConfigurationTarget.Global);
        const rows = await waitFor('the view to say no service answers', async () => {
          // Try Again, as a user would, should the first listing not have told yet.
          if (services.connection.baseUrl === proxy.url && services.connection.state !== 'unreachable') {
            await vscode.commands.executeCommand('webdata.runs.refresh');
          }
          const nodes = await rootNodes();
          return services.connection.baseUrl === proxy.url && services.connection.state === 'unreachable'
            ? nodes
            : undefined;
        });
        // In the view's message, which wraps (the view's title, where it was, is cut at the sidebar's width).
        assert.equal(
          services.treeView.message,
          `No Web Data service answers at ${proxy.url} (the setting Service Address). ("pnpm start" in a clone of webdata runs one at http://127.0.0.1:8787, the default address.)`,
        );
        assert.deepEqual(
          rows.map((node) => [item(node).label, item(node).command?.command, item(node).command?.arguments]),
          [
            ['Try Again', 'webdata.runs.refresh', []],
            ['Change the Address…', 'webdata.openSettings', []],
          ],
        );
      } finally {
        await vscode.workspace
          .getConfiguration('webdata')
          .update('serviceAddress', env.baseUrl, vscode.ConfigurationTarget.Global);
      }
      await waitFor('the view back on the service', async () =>
        services.connection.baseUrl === env.baseUrl && (await rootNodes()).some((node) => node.kind === 'run')
          ? true
          : undefined,
      );
      assert.match(String(services.treeView.message), /^Connected to /);
    });

    test("the log quotes a failed request's id once", async () => {
      const wrong = createClient({ baseUrl: env.baseUrl, apiKey: 'wd_not_a_key', retry: { maxRetries: 0 } });
      const error = await wrong.runs.list().then(
        () => assert.fail('a wrong key was accepted'),
        (failure: unknown) => failure as Error & { requestId?: string },
      );
      await wrong.close();
      assert.ok(error.requestId, 'the service gave a request id');
      assert.equal(describeError(error).split(error.requestId).length - 1, 1, describeError(error));
    });
  });
}
