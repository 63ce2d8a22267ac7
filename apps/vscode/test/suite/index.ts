import Mocha from 'mocha';
import { defineExtensionSuite } from './extension.suite.js';

/**
 * The integration suite's entry point, as `@vscode/test-electron` (and the
 * code-server harness, through the page URL) load it as `extensionTestsPath`:
 * VS Code calls `run()` inside its extension host once the extension under
 * development is installed, and ends the test run with its outcome.
 */
export function run(): Promise<void> {
  // WEBDATA_SUITE_GREP: only the tests whose title matches it, a regular expression (one test while working on it).
  const grep = process.env.WEBDATA_SUITE_GREP;
  const mocha = new Mocha({
    ui: 'tdd',
    color: false,
    timeout: 120_000,
    reporter: 'spec',
    ...(grep ? { grep } : {}),
  });
  // The suites are bundled into this file: give them mocha's globals, then let them declare their tests.
  mocha.suite.emit('pre-require', globalThis, 'webdata-suite', mocha);
  defineExtensionSuite();
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} test(s) failed`)) : resolve()));
  });
}
