import pg from 'pg';
import type { Logger } from '../logger';

export interface NotificationListenerOptions {
  connection: pg.ClientConfig;
  channels: string[];
  logger: Logger;
  onNotification(channel: string, payload: string): void;
  /** LISTEN is in place (first connect or a reconnect): anything sent while disconnected was missed. */
  onListening(): void;
  /** The connection is gone; notifications are not arriving until onListening again. */
  onLost(): void;
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

/**
 * A dedicated Postgres connection that LISTENs (a pooled connection cannot: LISTEN belongs to a session).
 * Reconnects with exponential backoff; its socket and timers are unref'd so it never keeps a process alive.
 */
export class NotificationListener {
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private attempt = 0;
  private connecting: Promise<void> | null = null;

  constructor(private readonly options: NotificationListenerOptions) {}

  start(): this {
    this.connecting = this.connect();
    return this;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ ...this.options.connection, application_name: 'workyard-listener' });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    client.on('notification', (msg) => this.options.onNotification(msg.channel, msg.payload ?? ''));
    try {
      await client.connect();
      unrefSocket(client);
      for (const channel of this.options.channels) await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      if (this.stopped) {
        await client.end();
        return;
      }
      this.client = client;
      this.attempt = 0;
      this.options.onListening();
    } catch (err) {
      await client.end().catch(() => undefined);
      this.lost(client, err);
    }
  }

  private lost(client: pg.Client, err?: unknown): void {
    if (this.stopped || (this.client && this.client !== client) || this.timer) return;
    this.client = null;
    this.options.onLost();
    const { minBackoffMs = 100, maxBackoffMs = 30_000 } = this.options;
    const delay = Math.min(maxBackoffMs, minBackoffMs * 2 ** this.attempt++);
    this.options.logger.warn(
      { err: err instanceof Error ? err.message : undefined, retryInMs: delay },
      'notification listener disconnected',
    );
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connecting = this.connect();
    }, delay);
    this.timer.unref();
  }
}

function unrefSocket(client: pg.Client): void {
  const stream = (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream;
  stream?.unref?.();
}
