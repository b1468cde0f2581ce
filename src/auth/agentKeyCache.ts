import { performance } from 'node:perf_hooks';
import type { Knex } from '../db/knex';
import { findAgentKey, type AgentKeyAuthRow } from './store';

/** How long a cached key is trusted without a read, even if a notification was lost. */
export const AGENT_KEY_CACHE_TTL_MS = 60_000;
/** Keys kept at once (a bound against a flood of distinct ids; unknown ids are never kept). */
const MAX_KEYS = 10_000;
/** The channel the database announces agent-key changes on (migration 202611274000_agent_key_notify). */
export const AGENT_KEYS_CHANNEL = 'agent_keys';

/**
 * The agent keys this process authenticates, by id, as the database stores them (the secret's hash, never the
 * secret: every request still HMACs its secret and compares). Entries are trusted only while `caching` is on, i.e.
 * while this process LISTENs for key changes; a change — announced, or made here — bumps `epoch`, so a read that was
 * already running when it happened never stores its (older) row. The same rules as the email keyring.
 */
export class AgentKeyCache {
  caching = false;
  private readonly keys = new Map<string, { row: AgentKeyAuthRow; freshUntil: number }>();
  private readonly loading = new Map<string, { epoch: number; promise: Promise<AgentKeyAuthRow | undefined> }>();
  private epoch = 0;

  constructor(
    private readonly db: Knex,
    private readonly ttlMs = AGENT_KEY_CACHE_TTL_MS,
    private readonly clock = () => performance.now(),
  ) {}

  /** The key with this id (revoked keys included), or undefined when there is none. */
  get(id: string): AgentKeyAuthRow | undefined | Promise<AgentKeyAuthRow | undefined> {
    const kept = this.keys.get(id);
    if (kept && kept.freshUntil > this.clock()) return kept.row;
    return this.load(id);
  }

  /** The key changed (announced, or changed by this process): its entry is dropped and no running read keeps it. */
  invalidate(id: string): void {
    this.epoch++;
    this.keys.delete(id);
  }

  /** Announcements may have been missed (the listener was down or reconnected): nothing kept is trusted. */
  invalidateAll(): void {
    this.epoch++;
    this.keys.clear();
  }

  private load(id: string): Promise<AgentKeyAuthRow | undefined> {
    const running = this.loading.get(id);
    if (running && running.epoch === this.epoch) return running.promise;
    const epoch = this.epoch;
    const promise = findAgentKey(this.db, id)
      .then((row) => {
        if (row && this.caching && epoch === this.epoch) {
          if (this.keys.size >= MAX_KEYS) this.keys.clear();
          this.keys.set(id, { row, freshUntil: this.clock() + this.ttlMs });
        }
        return row;
      })
      .finally(() => {
        if (this.loading.get(id)?.promise === promise) this.loading.delete(id);
      });
    this.loading.set(id, { epoch, promise });
    return promise;
  }
}
