import type { Knex } from '../../db/knex';
import { findWebhookTarget, type WebhookTarget } from './store';

/**
 * How long a looked-up shop (connection, account, app client_secret) is reused by one receiver: 1 s, as the
 * site-platform receiver. Concurrent deliveries of one shop also share ONE in-flight query (single flight), so under
 * load the lookup costs one indexed query per shop per second instead of one per burst; a secret change or an
 * uninstall is seen at most this late per replica (this process forgets an entry itself through `forget`). Unknown
 * shops and failed lookups are never reused.
 */
export const TARGET_CACHE_TTL_MS = 1_000;

interface Entry {
  at: number;
  value: Promise<WebhookTarget | undefined>;
}

/** The shop-domain → webhook target lookup of one receiver, with single-flight and an optional short TTL. */
export class WebhookTargets {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly options: { ttlMs?: number; now?: () => number } = {}) {}

  lookup(db: Knex, shopDomain: string): Promise<WebhookTarget | undefined> {
    const now = (this.options.now ?? Date.now)();
    const ttl = this.options.ttlMs ?? TARGET_CACHE_TTL_MS;
    const cached = this.entries.get(shopDomain);
    if (cached && (cached.at === Infinity || now - cached.at < ttl)) return cached.value;
    const entry: Entry = { at: Infinity, value: findWebhookTarget(db, shopDomain) };
    if (this.entries.size > 10_000) this.entries.clear();
    this.entries.set(shopDomain, entry);
    const settle = (keep: boolean) => {
      if (this.entries.get(shopDomain) !== entry) return;
      if (keep && ttl > 0) entry.at = (this.options.now ?? Date.now)();
      else this.entries.delete(shopDomain);
    };
    // Unknown shops and failed lookups are never reused: a shop connected a moment ago is found at once.
    entry.value.then(
      (target) => settle(target !== undefined),
      () => settle(false),
    );
    return entry.value;
  }

  forget(shopDomain: string): void {
    this.entries.delete(shopDomain);
  }
}
