import type pg from 'pg';
import type { RunChange } from '../store.js';
import { pgModule } from './pg-module.js';

/** The channel runs' changes are announced on (`pg_notify` in the writing transaction, so only on commit). */
export const RUN_CHANGES_CHANNEL = 'webdata_runs';

/** Pause before reconnecting after the listening connection was lost; doubles up to the last. */
const RECONNECT_DELAYS_MS = [100, 200, 500, 1000, 2000];

/**
 * The one connection per process that LISTENs for run changes made by any
 * process. When the connection is lost it reconnects (with back-off),
 * LISTENs again and calls `onResync`, since changes may have been missed
 * meanwhile: listeners then re-read what they care about.
 */
export class RunChangeListener {
  private client: pg.Client | null = null;
  private closed = false;
  private attempt = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly onChange: (change: RunChange) => void,
    private readonly onResync: () => void,
    private readonly onError: (error: Error) => void = () => {},
  ) {}

  /** Connects and LISTENs; resolves once listening, or after the first failure (it keeps trying). */
  async start(): Promise<void> {
    await this.connect(false);
  }

  private async connect(resync: boolean): Promise<void> {
    if (this.closed) return;
    const client = new (pgModule().Client)({
      connectionString: this.url,
      application_name: 'webdata-listen',
    });
    client.on('notification', (message) => {
      if (message.channel !== RUN_CHANGES_CHANNEL || !message.payload) return;
      try {
        this.onChange(JSON.parse(message.payload) as RunChange);
      } catch (error) {
        this.onError(error as Error);
      }
    });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (error) this.onError(error);
      if (this.client === client) this.client = null;
      client.end().catch(() => {});
      this.scheduleReconnect();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      await client.query(`LISTEN ${RUN_CHANGES_CHANNEL}`);
    } catch (error) {
      onLost(error as Error);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.attempt = 0;
    if (resync) this.onResync();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.timer) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(this.attempt++, RECONNECT_DELAYS_MS.length - 1)]!;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect(true);
    }, delay);
  }

  /** True while the LISTEN connection is up. */
  get listening(): boolean {
    return this.client !== null;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
