/** `@webdata/cli` as a library: the command line, runnable on any streams (tests, embedding). */
export { EXIT, exitCodeOf, exitCodeOfRun } from './exit-codes.js';
export type { CliIo } from './io.js';
export { runCli } from './program.js';
export { configPath, DEFAULT_BASE_URL, resolveSettings } from './settings.js';
