/**
 * The `webdata` process: runs the command line on the process's streams and
 * exits with its code. Ctrl-C stops a run stream, cancelling its run, and
 * exits 130. When stdout's reader goes away (`webdata runs ls | head`), it
 * stops at once with 141, as a program stopped by SIGPIPE does.
 */
import { runCli } from './program.js';

/** What a shell reports for a program stopped by SIGPIPE (128 + 13). */
const CLOSED_OUTPUT = 141;

// Node ignores SIGPIPE and reports a write to a closed pipe as an EPIPE error on the stream;
// unhandled, that error printed a stack trace on stderr.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(CLOSED_OUTPUT);
});

const controller = new AbortController();
process.once('SIGINT', () => {
  controller.abort();
  process.exitCode = 130;
});
const code = await runCli(
  process.argv.slice(2),
  { stdout: process.stdout, stderr: process.stderr, env: process.env, stdin: process.stdin },
  controller.signal,
);
process.exitCode = controller.signal.aborted ? 130 : code;
