import { format } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltExtension, buildExtension } from './harness/build-extension.js';
import { type CodeServer, startCodeServer } from './harness/code-server.js';
import { ensureCodeServer } from './harness/code-server-install.js';
import { startEnvironment, type TestEnvironment } from './harness/environment.js';
import { launchBrowser, workbenchUrl } from './harness/workbench.js';

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
    const { extensionPath, suitePath } = built;
    const remote = (path: string) => `vscode-remote://${codeServer.host}${path}`;
    const context = await launchBrowser();
    const lines: string[] = [];
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      let finish: (code: number) => void = () => undefined;
      const exitCode = new Promise<number>((resolve) => {
        finish = resolve;
      });
      await page.exposeFunction('codeAutomationExit', (code: number) => finish(code));
      // VS Code forwards the extension host's console (mocha's reporter) as format string and arguments.
      await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
        lines.push(`${type}: ${format(...args)}`);
      });
      await page.goto(
        workbenchUrl(codeServer.url, environment.workspace, [
          ['extensionDevelopmentPath', remote(extensionPath)],
          ['extensionTestsPath', remote(suitePath)],
        ]),
      );
      const code = await Promise.race([
        exitCode,
        new Promise<number>((_, reject) =>
          setTimeout(() => reject(new Error('the suite did not finish within 8 minutes')), 480_000),
        ),
      ]);
      console.log(lines.join('\n'));
      expect(code, `the mocha suite failed:\n${lines.join('\n')}\n${codeServer.output()}`).toBe(0);
    } finally {
      await context.close();
    }
  }, 600_000);
});
