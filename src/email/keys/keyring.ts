import { performance } from 'node:perf_hooks';
import type { Knex } from '../../db/knex';
import type { UsageRecorder } from '../usage/recorder';
import { LiveKey } from './liveKey';
import { findKeyForAuth, findKeysForAuth, type EmailKeyRow } from './store';

/** How long a cached key is trusted without a read, even if a notification was lost. */
export const KEYRING_TTL_MS = 60_000;

/**
 * The in-process cache of email keys by id. It stores what the database stores (the secret's hash, never the
 * secret): every request still HMACs its secret and compares. Entries are trusted only while `caching` is on,
 * i.e. while this process LISTENs for key changes; a change seen by notification or made here bumps `epoch`, so a
 * read that was already running when the change happened never marks its (older) row as fresh.
 */
export class Keyring {
  caching = false;
  private readonly keys = new Map<string, LiveKey>();
  private readonly loading = new Map<string, { epoch: number; promise: Promise<LiveKey | null> }>();
  private epoch = 0;

  constructor(
    private readonly db: Knex,
    private readonly usage: UsageRecorder,
    private readonly ttlMs = KEYRING_TTL_MS,
    private readonly clock = () => performance.now(),
  ) {}

  /** The key with this id (revoked keys included), or null when there is none. */
  get(id: string): Promise<LiveKey | null> | LiveKey {
    const key = this.keys.get(id);
    if (key && key.freshUntil > this.clock()) return key;
    return this.load(id);
  }

  /** A change this process just committed: applied at once, before the notification comes back. */
  applied(row: EmailKeyRow): void {
    this.epoch++;
    this.settle(row.id, row, this.epoch);
  }

  /** Another process (or this one) changed the key: drop trust in the entry and re-read it so held handles update. */
  async invalidate(id: string): Promise<void> {
    this.epoch++;
    const key = this.keys.get(id);
    if (!key) return;
    key.freshUntil = 0;
    await this.load(id);
  }

  /** Notifications may have been missed (listener reconnected): re-read every entry in one query. */
  async invalidateAll(): Promise<void> {
    const epoch = ++this.epoch;
    for (const key of this.keys.values()) key.freshUntil = 0;
    const ids = [...this.keys.keys()];
    const rows = new Map((await findKeysForAuth(this.db, ids)).map((row) => [row.id, row]));
    for (const id of ids) this.settle(id, rows.get(id), epoch);
  }

  private load(id: string): Promise<LiveKey | null> {
    const running = this.loading.get(id);
    if (running && running.epoch === this.epoch) return running.promise;
    const epoch = this.epoch;
    const promise = findKeyForAuth(this.db, id)
      .then((row) => this.settle(id, row, epoch))
      .finally(() => {
        if (this.loading.get(id)?.promise === promise) this.loading.delete(id);
      });
    this.loading.set(id, { epoch, promise });
    return promise;
  }

  private settle(id: string, row: EmailKeyRow | undefined, readAtEpoch: number): LiveKey | null {
    let key = this.keys.get(id);
    if (!row) {
      if (key) {
        key.revoked = true;
        this.keys.delete(id);
      }
      return null;
    }
    if (key) key.apply(row);
    else this.keys.set(id, (key = new LiveKey(id, row, this.usage)));
    key.freshUntil = this.caching && readAtEpoch === this.epoch ? this.clock() + this.ttlMs : 0;
    return key;
  }
}
