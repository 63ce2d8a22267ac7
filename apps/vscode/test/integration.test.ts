import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltExtension, buildExtension } from './harness/build-extension.js';
import { type CodeServer, startCodeServer } from './harness/code-server.js';
import { ensureCodeServer } from './harness/code-server-install.js';
import { startEnvironment, type TestEnvironment } from './harness/environment.js';
import { runInExtensionHost } from './harness/workbench.js';

/**
 * The mocha integration suite (test/suite), written for @vscode/test-electron,
 * run here inside a real VS Code: code-server's extension host, loaded through
 * the page URL as `extensionDevelopmentPath` + `extensionTestsPath`, against
 * the real server. VS Code reports the suite's outcome to the page.
 */
describe('integration suite inside VS Code (code-server)', () => {
  let environment: TestEnvironment;
  let codeServer: CodeServer;
  let built: BuiltExtension;

  beforeAll(async () => {
    const install = ensureCodeServer();
    built = buildExtension();
    environment = await startEnvironment();
    codeServer = await startCodeServer({
      install,
      home: `${environment.scratch}/code-server`,
      env: environment.env,
    });
  }, 600_000);

  afterAll(async () => {
    await codeServer?.stop();
    await environment?.close();
  });

  it('passes', async () => {
    const { code, lines } = await runInExtensionHost({
      codeServerUrl: codeServer.url,
      folder: environment.workspace,
      extensionPath: built.extensionPath,
      testsPath: built.suitePath,
      timeoutMs: 480_000,
    });
    console.log(lines.join('\n'));
    expect(code, `the mocha suite failed:\n${lines.join('\n')}\n${codeServer.output()}`).toBe(0);
  }, 600_000);
});
