import { parentPort, type ResourceLimits, type Worker } from 'node:worker_threads';
import { startWorkerThread } from './worker-thread.js';

/**
 * A pool thread died with this job queued behind the one it was running, or
 * while loading its script: the job itself did nothing wrong.
 */
class ThreadDiedError extends Error {
  constructor(
    message: string,
    /** False when the thread died loading its script: a broken install, where threads are no use. */
    readonly loaded: boolean,
  ) {
    super(message);
  }
}

/**
 * A job's thread died while running it: most likely the job needed more than
 * the thread's heap limits (a huge page). The job is not run again, least of
 * all on the main thread, where the same input would hold every request the
 * server is answering (and has no heap limit of its own).
 */
export class JobKilledThreadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobKilledThreadError';
  }
}

interface Pending<O> {
  resolve: (output: O) => void;
  reject: (error: Error) => void;
}

interface Thread<O> {
  worker: Worker;
  pending: Map<number, Pending<O>>;
  /** Settles once the thread has loaded its script (or died trying). */
  loaded: Promise<void>;
  /** True once the thread said its script is loaded. */
  ready: boolean;
}

/** What a pool thread answers to one job. */
type JobAnswer<O> = { id: number; output: O } | { id: number; error: string };

/** What a pool thread posts once its script, and every module it imports, is loaded. */
const LOADED = 'loaded';

/**
 * Runs one synchronous, CPU-heavy function (the job) on `threads` worker
 * threads running the script `name` (which calls {@link serveJobs} with the
 * same function), started by {@link ThreadPool.start} or on first use and
 * replaced if one dies, least busy first. With 0 threads, after `close`, or when a thread dies
 * loading its script, the job runs inline through `inline`: the same function, or one that imports
 * its module first (so that a server whose jobs run on threads does not load it at its start); the
 * answer is the same in both places. A job whose thread dies while running it (a heap limit hit)
 * rejects with {@link JobKilledThreadError}; the jobs queued behind it go to a new thread.
 */
export class ThreadPool<I, O> {
  private readonly pool: Thread<O>[] = [];
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly name: string,
    private readonly callerUrl: string,
    private readonly threads: number,
    private readonly limits: ResourceLimits,
    private readonly inline: (input: I) => O | Promise<O>,
  ) {}

  /**
   * Runs the job on a thread (inline when the pool has none); rejects with the job's own error, or
   * with {@link JobKilledThreadError} when the job killed its thread. `transfer`: buffers of the
   * input that are moved to the thread rather than copied (detached here) when it is loaded and
   * idle, so that it starts the job at once: a job queued behind another, or posted to a thread
   * still loading, may have to run again elsewhere, and keeps its input (copied to the thread).
   */
  async run(input: I, transfer: readonly ArrayBuffer[] = []): Promise<O> {
    if (this.threads === 0 || this.closed) return this.inline(input);
    const thread = this.leastBusy();
    const id = this.nextId++;
    const moved = transfer.length > 0 && thread.ready && thread.pending.size === 0;
    try {
      return await new Promise<O>((resolve, reject) => {
        thread.pending.set(id, { resolve, reject });
        thread.worker.postMessage({ id, input }, moved ? [...transfer] : []);
      });
    } catch (error) {
      if (!(error instanceof ThreadDiedError)) throw error;
      // Its input went with the thread (stopped by `close`): it cannot run again.
      if (moved)
        throw new JobKilledThreadError(
          `${this.name} thread stopped with this job's input (${error.message})`,
        );
      // Queued behind the job that killed the thread: a new thread takes it. Died loading: inline.
      return error.loaded ? this.run(input, transfer) : this.inline(input);
    }
  }

  /**
   * Starts every thread now and resolves once each has loaded its script and
   * the modules it imports (or died trying: a job then starts a new one, as
   * on first use). Starting a thread and loading its code costs a few hundred
   * ms; started here, that is not paid by the first job waiting for it.
   */
  async start(): Promise<void> {
    if (this.threads === 0 || this.closed) return;
    while (this.pool.length < this.threads) this.pool.push(this.spawn());
    await Promise.all(this.pool.map((thread) => thread.loaded));
  }

  /** Threads running whose script is loaded. */
  get loadedThreads(): number {
    return this.pool.filter((thread) => thread.ready).length;
  }

  private leastBusy(): Thread<O> {
    while (this.pool.length < this.threads) this.pool.push(this.spawn());
    return this.pool.reduce((best, thread) => (thread.pending.size < best.pending.size ? thread : best));
  }

  private spawn(): Thread<O> {
    const worker = startWorkerThread(this.name, this.callerUrl, this.limits);
    let settleLoaded!: () => void;
    const loaded = new Promise<void>((resolve) => {
      settleLoaded = resolve;
    });
    const thread: Thread<O> = { worker, pending: new Map(), loaded, ready: false };
    worker.unref();
    worker.on('message', (answer: JobAnswer<O> | typeof LOADED) => {
      if (answer === LOADED) {
        thread.ready = true;
        return settleLoaded();
      }
      const pending = thread.pending.get(answer.id);
      thread.pending.delete(answer.id);
      if ('output' in answer) pending?.resolve(answer.output);
      else pending?.reject(new Error(`${this.name} failed: ${answer.error}`));
    });
    const fail = (reason: string) => {
      settleLoaded();
      // A thread runs its jobs in the order they were posted: the first one still pending is the one it
      // was running when it died. A thread that never loaded ran none; one stopped by `close` was
      // killed by the pool, and its jobs run inline.
      let running = thread.ready && !this.closed;
      for (const pending of thread.pending.values()) {
        pending.reject(
          running
            ? new JobKilledThreadError(`${this.name} thread died running this job (${reason})`)
            : new ThreadDiedError(reason, thread.ready),
        );
        running = false;
      }
      thread.pending.clear();
      const index = this.pool.indexOf(thread);
      if (index >= 0) this.pool.splice(index, 1);
    };
    worker.on('error', (error) => fail(error.message));
    worker.on('exit', (code) => fail(`${this.name} thread exited with code ${code}`));
    return thread;
  }

  /** Stops the threads; later jobs run inline. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.pool.splice(0).map((thread) => thread.worker.terminate()));
  }
}

/**
 * The body of a {@link ThreadPool}'s thread script: answers each job posted to it with `job`.
 * `transfer`: the buffers of an output moved to the asking thread rather than copied (each must be
 * the whole of an ArrayBuffer the output alone holds: it is detached here).
 */
export function serveJobs<I, O>(
  job: (input: I) => O,
  transfer: (output: O) => ArrayBuffer[] = () => [],
): void {
  parentPort!.on('message', ({ id, input }: { id: number; input: I }) => {
    let answer: JobAnswer<O>;
    let moved: ArrayBuffer[] = [];
    try {
      const output = job(input);
      answer = { id, output };
      moved = transfer(output);
    } catch (error) {
      answer = { id, error: error instanceof Error ? error.message : String(error) };
    }
    parentPort!.postMessage(answer, moved);
  });
  // Modules are evaluated before the script's body: by now every import is loaded.
  parentPort!.postMessage(LOADED);
}

/**
 * Whether `bytes` spans the whole of an ArrayBuffer (not a slice of a shared one, as a small
 * Buffer is of Node's pool: moving that buffer would take its neighbours' bytes too), so that it
 * can be moved to another thread.
 */
export function ownsItsBuffer(bytes: Uint8Array): boolean {
  return (
    bytes.buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength
  );
}
