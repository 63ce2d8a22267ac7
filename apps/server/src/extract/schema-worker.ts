/**
 * The schema thread: compiles request schemas and checks extracted objects
 * for its {@link ThreadedSchemaValidator}, one job at a time, so a costly
 * schema never runs on the main thread.
 */
import { parentPort } from 'node:worker_threads';
import { compileSchema } from './schema-compiler.js';
import { InlineSchemaValidator } from './schema-validator.js';
import type { SchemaJob, SchemaJobAnswer } from './schema-validator-thread.js';

const validator = new InlineSchemaValidator();

parentPort!.on('message', (job: SchemaJob) => {
  let answer: SchemaJobAnswer;
  try {
    answer =
      job.kind === 'schema'
        ? { id: job.id, problem: validator.checkSchemaNow(job.owner, job.schema) }
        : { id: job.id, check: validator.checkOutputNow(job.owner, job.schema, job.data) };
  } catch (error) {
    answer = { id: job.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(answer);
});
// The budget of the first job starts once the thread is loaded and warm (the
// meta-schema compiled), not while it still starts.
compileSchema({ type: 'object', properties: { warm: { type: 'string', pattern: '^w', format: 'date' } } });
parentPort!.postMessage({ ready: true });
