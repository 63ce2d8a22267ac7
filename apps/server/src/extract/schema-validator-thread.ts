import type { Worker } from 'node:worker_threads';
import type { ExtractionSchema } from '@webdata/contract';
import { ServiceError } from '../errors.js';
import { startWorkerThread } from '../worker-thread.js';
import { OwnerCache } from './owner-cache.js';
import type { SchemaProblem } from './schema-compiler.js';
import { type OutputCheck, SCHEMA_CACHE_LIMITS, type SchemaValidator } from './schema-validator.js';

/** A job posted to the schema thread. */
export type SchemaJob =
  | { id: number; kind: 'schema'; owner: string; schema: unknown }
  | { id: number; kind: 'output'; owner: string; schema: ExtractionSchema; data: unknown };

/** The schema thread's answer to a job. */
export type SchemaJobAnswer =
  | { id: number; problem: SchemaProblem | null }
  | { id: number; check: OutputCheck }
  | { id: number; error: string };

/** Settings of a {@link ThreadedSchemaValidator}. */
export interface SchemaThreadOptions {
  /** Longest one job (a compile, or a compile and a check) may run before the thread is replaced. */
  budgetMs: number;
  /** Schema checks one owner may have waiting; past it, requests get 503 with `Retry-After`. */
  maxWaitingPerOwner: number;
}

/**
 * Heap limits of the schema thread: a schema that needs more memory to
 * compile kills only the thread (and is refused); the cache it holds is
 * bounded well below them (see `SCHEMA_CACHE_LIMITS`).
 */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16 };

type Job = SchemaJob & {
  key: string;
  settle: (answer: SchemaJobAnswer) => void;
  fail: (error: Error) => void;
};

/**
 * A {@link SchemaValidator} whose compiling and checking happen on a thread of
 * its own, so no schema (however costly) blocks the event loop that serves
 * requests. Jobs run one at a time, taking turns between owners, so one
 * owner's burst of schemas delays the others by at most one job each. A job
 * that runs past `budgetMs`, or that kills the thread, is answered with a
 * refusal and the thread is replaced. Outcomes of schema checks are
 * remembered per owner, so a schema sent again (a good one, or one refused,
 * even for its cost) is answered at once.
 */
export class ThreadedSchemaValidator implements SchemaValidator {
  private worker: Worker | null = null;
  /** Whether the thread has loaded and can take a job. */
  private ready = false;
  /** Waiting jobs by owner; the Map's order is the owners' turn order. */
  private readonly waiting = new Map<string, Job[]>();
  private running: { job: Job; timer: NodeJS.Timeout } | null = null;
  private nextId = 0;
  private closed = false;
  /**
   * Outcomes of schema checks by owner (`null`: it compiles), so a schema
   * sent again is answered without the thread, and one that overran the
   * budget is refused at once. Weighed by the schema's JSON length.
   */
  private readonly known = new OwnerCache<SchemaProblem | null>(SCHEMA_CACHE_LIMITS);
  /** Schema checks waiting or running, by owner and schema: the same schema sent at once is checked once. */
  private readonly checking = new Map<string, Map<string, Promise<SchemaProblem | null>>>();

  constructor(private readonly options: SchemaThreadOptions) {}

  checkSchema(owner: string, schema: unknown): Promise<SchemaProblem | null> {
    const key = JSON.stringify(schema) ?? 'undefined';
    const known = this.known.get(owner, key);
    if (known !== undefined) return Promise.resolve(known);
    const checking = this.checking.get(owner) ?? new Map<string, Promise<SchemaProblem | null>>();
    const same = checking.get(key);
    if (same) return same;
    if (checking.size >= this.options.maxWaitingPerOwner) {
      return Promise.reject(
        new ServiceError(
          'unavailable',
          `${checking.size} schemas of this key are waiting to be compiled; retry shortly`,
          { retryAfterSeconds: 1 },
        ),
      );
    }
    const check = this.run({ id: this.nextId++, kind: 'schema', owner, schema, key })
      .then((answer) => {
        const problem =
          'problem' in answer
            ? answer.problem
            : { message: 'error' in answer ? answer.error : 'the schema could not be checked', path: [] };
        this.known.set(owner, key, problem, key.length);
        return problem;
      })
      .finally(() => {
        checking.delete(key);
        if (checking.size === 0) this.checking.delete(owner);
      });
    checking.set(key, check);
    this.checking.set(owner, checking);
    return check;
  }

  async checkOutput(owner: string, schema: ExtractionSchema, data: unknown): Promise<OutputCheck> {
    const key = JSON.stringify(schema);
    const known = this.known.get(owner, key);
    if (known) return { valid: false, message: known.message };
    const answer = await this.run({ id: this.nextId++, kind: 'output', owner, schema, data, key });
    if ('check' in answer) return answer.check;
    if ('problem' in answer) return { valid: false, message: answer.problem?.message ?? 'invalid schema' };
    return { valid: false, message: answer.error };
  }

  /** Stops the thread; jobs still waiting are answered 503. */
  async close(): Promise<void> {
    this.closed = true;
    const jobs = [...this.waiting.values()].flat();
    if (this.running) {
      clearTimeout(this.running.timer);
      jobs.push(this.running.job);
    }
    this.waiting.clear();
    this.running = null;
    for (const job of jobs) job.fail(shuttingDown());
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private run(job: SchemaJob & { key: string }): Promise<SchemaJobAnswer> {
    if (this.closed) return Promise.reject(shuttingDown());
    return new Promise((settle, fail) => {
      const queue = this.waiting.get(job.owner) ?? [];
      queue.push({ ...job, settle, fail } as Job);
      this.waiting.set(job.owner, queue);
      this.pump();
    });
  }

  /** Starts the next job: the first waiting owner's oldest, after which that owner goes to the back. */
  private pump(): void {
    if (this.running || this.closed || this.waiting.size === 0) return;
    const worker = this.thread();
    if (!this.ready) return;
    const next = this.waiting.entries().next();
    if (next.done) return;
    const [owner, queue] = next.value;
    const job = queue.shift()!;
    this.waiting.delete(owner);
    if (queue.length > 0) this.waiting.set(owner, queue);
    const timer = setTimeout(
      () =>
        this.abandon(
          worker,
          `the schema took longer than ${this.options.budgetMs} ms to compile and check; simplify it`,
        ),
      this.options.budgetMs,
    );
    this.running = { job, timer };
    const { settle: _settle, fail: _fail, key: _key, ...message } = job;
    worker.postMessage(message);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorkerThread('schema-worker', import.meta.url, THREAD_LIMITS);
    worker.unref();
    worker.on('message', (answer: SchemaJobAnswer | { ready: true }) => {
      if (worker !== this.worker) return;
      if ('ready' in answer) {
        this.ready = true;
        this.pump();
        return;
      }
      if (!this.running || this.running.job.id !== answer.id) return;
      clearTimeout(this.running.timer);
      const { job } = this.running;
      this.running = null;
      job.settle(answer);
      this.pump();
    });
    const died = (reason: string) => this.abandon(worker, reason);
    worker.on('error', (error) =>
      died(`the schema could not be compiled within the thread's memory (${error.message})`),
    );
    worker.on('exit', (code) => died(`the schema thread stopped (exit code ${code})`));
    this.worker = worker;
    this.ready = false;
    return worker;
  }

  /**
   * Gives up on the running job (over budget, or its thread died) and
   * replaces the thread. A thread that dies before it is ready cannot run
   * anything: the waiting jobs fail rather than start threads without end.
   */
  private abandon(worker: Worker, reason: string): void {
    if (worker !== this.worker) return;
    this.worker = null;
    void worker.terminate();
    if (!this.ready) {
      const jobs = [...this.waiting.values()].flat();
      this.waiting.clear();
      for (const job of jobs) job.fail(new Error(`the schema thread did not start: ${reason}`));
      return;
    }
    const running = this.running;
    this.running = null;
    if (running) {
      clearTimeout(running.timer);
      running.job.settle({ id: running.job.id, problem: { message: reason, path: [] } });
    }
    this.pump();
  }
}

function shuttingDown(): ServiceError {
  return new ServiceError('unavailable', 'the server is shutting down', { retryAfterSeconds: 5 });
}
