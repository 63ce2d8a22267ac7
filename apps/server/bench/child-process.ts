/**
 * Child processes of the benchmarks: started with a deadline, measured from
 * `/proc` (resident set, CPU time of every thread), stopped by their pid.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** How long a child may take to print the line the bench waits for. */
export const CHILD_DEADLINE_MS = 300_000;

/** Clock ticks per second of `/proc/<pid>/stat` (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** VmHWM (peak resident set) or VmRSS (current) of a live process, in MB. */
export function rssMb(pid: number | 'self', field: 'VmHWM' | 'VmRSS' = 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
}

/** User + system CPU time a live process has used so far (all its threads), in ms. */
export function cpuMs(pid: number | 'self' | `${number}/task/${number}`): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis are fixed.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15, i.e. 11 and 12 after the state (field 3).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/**
 * CPU time (user + system, ms) each live thread of a process has used so far,
 * by thread id (the main thread's id is the pid). Node names all its threads
 * `node`, so a thread is told apart by its id and by how much it worked.
 */
export function threadCpuMs(pid: number): Map<number, number> {
  const threads = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      threads.set(Number(tid), cpuMs(`${pid}/task/${tid}` as `${number}/task/${number}`));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return threads;
}

/** A started child, the match of its ready line, and everything it printed so far. */
export interface StartedChild {
  child: ChildProcess;
  match: RegExpExecArray;
  output: () => string;
}

/** Starts a child (a TypeScript file through tsx unless `tsx` is false) and waits for a line matching `ready`. */
export async function startChild(
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv = process.env,
  nodeArgs: string[] = [],
  tsx = true,
): Promise<StartedChild> {
  const loader = tsx ? ['--conditions=source', '--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...nodeArgs, ...loader, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (chunk) => {
    out += chunk;
  });
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child ${args.join(' ')} printed nothing ready in ${CHILD_DEADLINE_MS} ms:\n${out}`));
    }, CHILD_DEADLINE_MS);
    let waiting = true;
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      // Matched once: a chatty child's later output is only collected, not searched again.
      const found = waiting ? ready.exec(out) : null;
      if (found) {
        waiting = false;
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`child ${args.join(' ')} exited with ${code}:\n${out}`));
    });
  });
  return { child, match, output: () => out };
}

/** Waits for a child to exit, killing it when it has not within `graceMs` of the signal. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
