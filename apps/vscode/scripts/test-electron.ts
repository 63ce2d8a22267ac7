// `pnpm --filter @webdata/vscode test:electron`: the integration suite (test/suite) in a desktop
// VS Code that @vscode/test-electron downloads, against the real server. For developers'
// machines: the CI machines cannot reach VS Code's download hosts, and run the same suite inside
// code-server instead (test/integration.test.ts).
import { runTests } from '@vscode/test-electron';
import { buildExtension } from '../test/harness/build-extension.js';
import { startEnvironment } from '../test/harness/environment.js';

const built = buildExtension();
const environment = await startEnvironment();
try {
  await runTests({
    extensionDevelopmentPath: built.extensionPath,
    extensionTestsPath: built.suitePath,
    launchArgs: [environment.workspace, '--disable-extensions', '--disable-workspace-trust'],
    extensionTestsEnv: environment.env,
  });
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await environment.close();
}
