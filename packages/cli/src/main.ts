/**
 * The `webdata` process: runs the command line on the process's streams and
 * exits with its code. Ctrl-C stops a run stream, cancelling its run, and
 * exits 130.
 */
import { runCli } from './program.js';

const controller = new AbortController();
process.once('SIGINT', () => {
  controller.abort();
  process.exitCode = 130;
});
const code = await runCli(
  process.argv.slice(2),
  { stdout: process.stdout, stderr: process.stderr, env: process.env },
  controller.signal,
);
process.exitCode = controller.signal.aborted ? 130 : code;
