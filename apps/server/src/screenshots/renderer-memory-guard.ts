import { readFile } from 'node:fs/promises';

/** One of the browser's processes, as DevTools' `SystemInfo.getProcessInfo` lists it. */
export interface BrowserProcess {
  /** `browser`, `renderer`, `GPU`, `utility`… */
  type: string;
  /** The operating system's process id. */
  id: number;
}

/** The resident memory of a process in bytes, or undefined when it cannot be read. */
export type ReadResidentBytes = (pid: number) => Promise<number | undefined>;

/**
 * The resident memory of a process from `/proc/<pid>/status` (`VmRSS`).
 * Undefined where there is no `/proc` (not Linux) or the process is gone.
 */
export async function readResidentBytes(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** What a {@link RendererMemoryGuard} needs from the browser and the operating system. */
export interface RendererMemoryGuardOptions {
  /** Resident memory above which a renderer is stopped, in bytes. */
  limitBytes: number;
  /** The browser's processes now. */
  listProcesses: () => Promise<readonly BrowserProcess[]>;
  /**
   * Whether a page may be running now: a capture in flight, or a tab kept open for a run's next
   * capture (its page's scripts still run). The guard looks while this holds.
   */
  busy: () => boolean;
  /** Default {@link readResidentBytes}. */
  readResident?: ReadResidentBytes;
  /** Stops a process (default `SIGKILL`). */
  kill?: (pid: number) => void;
  /** Time between two looks while a capture is in flight (default 250 ms). */
  intervalMs?: number;
}

/**
 * Stops any renderer of the browser whose resident memory passes a limit,
 * looking every `intervalMs` from {@link watch} for as long as `busy()` holds.
 *
 * Chromium has no memory limit of its own for a renderer: a page that fills
 * arrays took one to 2.4 GB within the page time limit, and a page filling
 * ArrayBuffers to 1.9 GB, which V8's heap flag (`--max-old-space-size`) does
 * not count. A few such pages at once could exhaust the machine and get the
 * server killed. Stopping the renderer crashes its tabs: the capture fails,
 * the browser and the other runs' renderers carry on. Where resident memory
 * cannot be read (no `/proc`), the guard does nothing.
 */
export class RendererMemoryGuard {
  /** Renderers stopped so far. */
  stoppedRenderers = 0;
  /** When the last renderer was stopped (ms, `performance.now()`), or -Infinity. */
  lastStopAt = Number.NEGATIVE_INFINITY;
  private readonly readResident: ReadResidentBytes;
  private readonly kill: (pid: number) => void;
  private readonly intervalMs: number;
  private timer: NodeJS.Timeout | undefined;
  private looking = false;

  constructor(private readonly options: RendererMemoryGuardOptions) {
    this.readResident = options.readResident ?? readResidentBytes;
    this.kill = options.kill ?? ((pid) => process.kill(pid, 'SIGKILL'));
    this.intervalMs = options.intervalMs ?? 250;
  }

  /** A capture starts: look at the renderers from now until `busy()` no longer holds. */
  watch(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.options.busy()) void this.look();
      else this.stop();
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Stops looking (the browser closed). */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One look: stops each renderer over the limit. Never throws. */
  async look(): Promise<void> {
    // A slow look (a loaded machine) is not stacked with the next one.
    if (this.looking) return;
    this.looking = true;
    try {
      const processes = await this.options.listProcesses().catch(() => []);
      for (const { type, id } of processes) {
        if (type !== 'renderer') continue;
        const resident = await this.readResident(id);
        if (resident === undefined || resident <= this.options.limitBytes) continue;
        try {
          this.kill(id);
          this.stoppedRenderers++;
          this.lastStopAt = performance.now();
        } catch {
          // Gone already.
        }
      }
    } finally {
      this.looking = false;
    }
  }
}
