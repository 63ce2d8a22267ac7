import * as vscode from 'vscode';
import type { Connection } from '../connection/connection.js';
import type { Log } from '../ui/log.js';
import { safeTitle } from './result-uri.js';
import { isStaleSignature, isUsable, type SignedUrl } from './signed-url.js';

/**
 * Screenshots as PNG files in the extension's storage, opened in VS Code's
 * image preview. A screenshot is downloaded once from the signed URL the
 * service hands out (no API key needed); a URL near or past its expiry, or
 * one the service refuses, is signed again.
 */
export class ScreenshotFiles {
  readonly #folder: vscode.Uri;
  readonly #connection: Connection;
  readonly #log: Log;
  readonly #signed = new Map<string, SignedUrl>();

  constructor(storage: vscode.Uri, connection: Connection, log: Log) {
    this.#folder = vscode.Uri.joinPath(storage, 'screenshots');
    this.#connection = connection;
    this.#log = log;
  }

  /** Downloads (unless already there) and opens a result's screenshot. */
  async open(runId: string, resultId: string, title: string): Promise<vscode.Uri> {
    const file = await this.file(runId, resultId, title);
    await vscode.commands.executeCommand('vscode.open', file);
    return file;
  }

  /** The screenshot's file, downloaded when missing. */
  async file(runId: string, resultId: string, title: string): Promise<vscode.Uri> {
    const name = `${safeTitle(title).replace(/[^\w .()-]/g, '_') || 'screenshot'} (${resultId}).png`;
    const file = vscode.Uri.joinPath(this.#folder, encodeURIComponent(runId), name);
    if (await exists(file)) return file;
    const png = await this.#download(runId, resultId);
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(file, '..'));
    await vscode.workspace.fs.writeFile(file, png);
    this.#log.info(`saved the screenshot of ${resultId} (${png.byteLength} bytes) to ${file.fsPath}`);
    return file;
  }

  async #download(runId: string, resultId: string): Promise<Uint8Array> {
    const key = `${runId}/${resultId}`;
    let signed = this.#signed.get(key);
    for (let attempt = 0; attempt < 2; attempt++) {
      if (!signed || !isUsable(signed, Date.now())) {
        signed = await this.#connection.client().runs.screenshot(runId, resultId);
        this.#signed.set(key, signed);
      }
      const response = await fetch(signed.url, { signal: AbortSignal.timeout(60_000) });
      if (response.ok) return new Uint8Array(await response.arrayBuffer());
      await response.body?.cancel();
      if (attempt === 0 && isStaleSignature(response.status)) {
        this.#log.info(
          `the signed URL of ${resultId}'s screenshot was refused (${response.status}); signing again`,
        );
        this.#signed.delete(key);
        signed = undefined;
        continue;
      }
      throw new Error(`downloading the screenshot failed with HTTP ${response.status}`);
    }
    throw new Error('downloading the screenshot failed');
  }
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
