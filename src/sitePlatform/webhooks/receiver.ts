import { createHash, timingSafeEqual } from 'node:crypto';
import type { AppDeps } from '../../deps';
import { GroupCommitter } from '../../db/groupCommit';
import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import { countedDelivery, type DeliveryNote } from '../../telemetry/metrics';
import { recordPlatformSubmission } from '../../forms/service';
import { openSealed } from '../connections/tokens';
import { eventIdOf, parseEnvelope } from './events';
import { eventKeyOf, findReceiverTarget, insertEventOnce, insertEvents, recordUnverified, stampLastReceived } from './eventsStore';
import type { NewEvent, ReceiverTarget } from './eventsStore';
import { notifySiteEventRelays } from './relay';
import { checkPlatformSignature, type SignatureRefusal } from './receiverSignature';
import { urlTokenHash } from './urlToken';

type ReceiverDeps = Pick<AppDeps, 'db' | 'logger' | 'config'> & { now?: () => number };

export interface IncomingSiteDelivery {
  connectionId: string;
  urlToken: string;
  rawBody: Buffer;
  timestamp: string | undefined;
  signature: string | undefined;
}

export type SiteReceipt = { received: true; replay?: true } | { ignored: true };

/** doc2 Limits "unverified delivery rows": per connection per hour. */
export const UNVERIFIED_ROWS_PER_HOUR = 50;
/** A subscription's `last_received_at` is stamped at most this often per (connection, site, trigger) and receiver. */
export const STAMP_INTERVAL_MS = 10_000;
/** Most rows one group-commit statement inserts, and most payload bytes. */
export const EVENT_COMMIT_MAX_ROWS = 200;
export const EVENT_COMMIT_MAX_BYTES = 4 * 1024 * 1024;

// The answers carry no step detail: the platform (or whoever guesses URLs) learns nothing but the status.
export const receiverNotFound = () => new ApiError(404, 'not_found', 'not found');
export const receiverUnauthorized = () => new ApiError(401, 'unauthorized', 'unauthorized');
export const ledgerUnavailable = () =>
  new ApiError(503, 'ledger_unavailable', 'the form submission could not be recorded; the platform redelivers it');

/**
 * How long a looked-up live connection (account, auth kind, token hash, client, sites) is reused by one receiver.
 * Concurrent deliveries of a connection also share ONE in-flight query (single flight). Unknown, disconnected and
 * unregistered connections and failed lookups are never reused, so a connection registered a moment ago is found at
 * once; a disconnect, a re-registration (new URL token) or a changed site list is seen at most this late per replica.
 */
export const TARGET_CACHE_TTL_MS = 1_000;

interface TargetEntry {
  at: number;
  value: Promise<ReceiverTarget | undefined>;
}

/** The in-process state of one receiver: connection lookups (single flight, short TTL), opened client secrets, the group commit, stamps. */
export class SiteReceiverState {
  private readonly lookups = new Map<string, TargetEntry>();
  private readonly secrets = new Map<string, string>();
  private commit?: { db: Knex; group: GroupCommitter<NewEvent> };
  private readonly stamped = new Map<string, number>();

  constructor(private readonly options: { ttlMs?: number } = {}) {}

  /** The connection of a receiver URL (see TARGET_CACHE_TTL_MS). */
  lookup(db: Knex, connectionId: string, now = Date.now()): Promise<ReceiverTarget | undefined> {
    const ttl = this.options.ttlMs ?? TARGET_CACHE_TTL_MS;
    const cached = this.lookups.get(connectionId);
    if (cached && (cached.at === Infinity || now - cached.at < ttl)) return cached.value;
    const entry: TargetEntry = { at: Infinity, value: findReceiverTarget(db, connectionId) };
    if (this.lookups.size > 10_000) this.lookups.clear();
    this.lookups.set(connectionId, entry);
    const settle = (keep: boolean) => {
      if (this.lookups.get(connectionId) !== entry) return;
      if (keep && ttl > 0) entry.at = Date.now();
      else this.lookups.delete(connectionId);
    };
    entry.value.then(
      (target) => settle(!!target && !target.disconnected && !!target.tokenHash),
      () => settle(false),
    );
    return entry.value;
  }

  /** An account client's secret, opened once per sealed value (a re-sealed or replaced secret is a new value). */
  openSecret(deps: ReceiverDeps, sealed: string): string {
    let plain = this.secrets.get(sealed);
    if (plain === undefined) {
      plain = openSealed(deps.config, sealed).plaintext;
      if (this.secrets.size > 1000) this.secrets.clear();
      this.secrets.set(sealed, plain);
    }
    return plain;
  }

  groupCommitOf(db: Knex): GroupCommitter<NewEvent> {
    if (this.commit?.db !== db) {
      this.commit = {
        db,
        group: new GroupCommitter<NewEvent>(
          db,
          {
            insert: insertEvents,
            keyOf: eventKeyOf,
            bytesOf: (e) => e.payloadJson.length,
            maxRows: EVENT_COMMIT_MAX_ROWS,
            maxBytes: EVENT_COMMIT_MAX_BYTES,
          },
          () => notifySiteEventRelays(),
        ),
      };
    }
    return this.commit.group;
  }

  claimStamp(key: string, now = Date.now()): boolean {
    const last = this.stamped.get(key);
    if (last !== undefined && now - last < STAMP_INTERVAL_MS) return false;
    if (this.stamped.size > 10_000) this.stamped.clear();
    this.stamped.set(key, now);
    return true;
  }
}

/** Constant-time equality of two hex digests (a malformed stored value never matches). */
function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b.toLowerCase(), 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The OAuth client secret that signs this connection's deliveries: its own client's, else the service-wide one. */
function secretOf(deps: ReceiverDeps, state: SiteReceiverState, target: ReceiverTarget): string | undefined {
  if (target.oauthAppId && target.clientSecretEnc) {
    try {
      return state.openSecret(deps, target.clientSecretEnc);
    } catch (err) {
      deps.logger.warn(
        { connectionId: target.connectionId, code: err instanceof ApiError ? err.code : (err as Error).name },
        'the OAuth client secret cannot be opened; the delivery cannot be verified',
      );
      return undefined;
    }
  }
  return deps.config.SITE_PLATFORM_CLIENT_SECRET || undefined;
}

/**
 * The receiver's seven steps (doc2 Events), given the raw body the route read byte for byte (step 1):
 * 2. the connection exists, is live and has a URL token hash, else 404 (nothing written);
 * 3. SHA-256 of the URL token equals the stored hash (constant time), else 401 (nothing written);
 * 4. OAuth connections: `x-webflow-signature` is the hex HMAC-SHA256 of `<x-webflow-timestamp>:<rawBody>` under the
 *    OAuth app's client secret, the timestamp within 5 minutes, else 401 and a bounded unverified row (at most 50 per
 *    connection per hour). Site-token connections are unsigned: recorded with verification `url_token`;
 * 5. an unusable envelope, or a site the connection does not reach → 200 ignored (nothing written);
 * 6. recorded once per (account, site, event id) — group commit — a duplicate → 200 replay, no fan-out. A form
 *    submission is recorded with its ledger row in one transaction; a failed ledger write rolls both back → 503;
 * 7. `last_received_at` stamped (best effort, throttled), the relay woken (the fan-out is workflow work), 200.
 */
export function receiveSiteDelivery(deps: ReceiverDeps, state: SiteReceiverState, d: IncomingSiteDelivery): Promise<SiteReceipt> {
  return countedDelivery(
    'site_platform',
    (note) => receive(deps, state, d, note),
    (receipt) => ('ignored' in receipt ? 'ignored' : receipt.replay ? 'duplicate' : 'accepted'),
  );
}

async function receive(deps: ReceiverDeps, state: SiteReceiverState, d: IncomingSiteDelivery, note: DeliveryNote): Promise<SiteReceipt> {
  const target = isUuid(d.connectionId) ? await state.lookup(deps.db, d.connectionId) : undefined;
  if (!target || target.disconnected || !target.tokenHash) throw receiverNotFound();
  if (!sameDigest(urlTokenHash(d.urlToken), target.tokenHash)) throw receiverUnauthorized();

  let verification: 'hmac' | 'url_token' = 'url_token';
  if (target.authKind === 'oauth') {
    const now = (deps.now ?? Date.now)();
    const refusal = checkPlatformSignature(secretOf(deps, state, target), d.rawBody, d.timestamp, d.signature, now);
    if (refusal) {
      await recordRefusal(deps, target, d.rawBody, refusal);
      throw receiverUnauthorized();
    }
    verification = 'hmac';
  }

  const envelope = parseEnvelope(d.rawBody);
  if (envelope) note.topic = envelope.triggerType;
  if (!envelope || !target.siteIds.includes(envelope.siteId)) return { ignored: true };

  const event: NewEvent = {
    accountId: target.accountId,
    connectionId: target.connectionId,
    siteId: envelope.siteId,
    eventId: eventIdOf(envelope, d.rawBody),
    triggerType: envelope.triggerType,
    payloadJson: JSON.stringify(envelope.payload),
    verification,
  };
  const isNew =
    envelope.triggerType === 'form_submission'
      ? await recordSubmission(deps, event, envelope.payload)
      : await state.groupCommitOf(deps.db).record(event);
  if (!isNew) return { received: true, replay: true };

  if (state.claimStamp(`${event.connectionId}:${event.siteId}:${event.triggerType}`)) await stampBestEffort(deps, event);
  return { received: true };
}

/** Step 4's bounded record of a refused delivery: why, how big, and the body's digest — never the body itself. */
async function recordRefusal(deps: ReceiverDeps, target: ReceiverTarget, rawBody: Buffer, reason: SignatureRefusal): Promise<void> {
  try {
    const written = await recordUnverified(
      deps.db,
      target.accountId,
      target.connectionId,
      { reason, bytes: rawBody.length, sha256: createHash('sha256').update(rawBody).digest('hex') },
      UNVERIFIED_ROWS_PER_HOUR,
    );
    deps.logger.warn({ connectionId: target.connectionId, reason, recorded: written }, 'site platform delivery refused: not verified');
  } catch (err) {
    deps.logger.warn(
      { connectionId: target.connectionId, reason, error: (err as Error).name },
      'unverified delivery could not be recorded',
    );
  }
}

/**
 * A form submission: the event row and the ledger row (with its `form_submitted` trigger) in ONE transaction, so a
 * failed ledger write leaves no event row behind and the platform's redelivery is not a replay (503). A permanent
 * ledger outcome (no id, no name, no timestamp) is reported and answered 200: a retry would carry the same.
 */
async function recordSubmission(deps: ReceiverDeps, event: NewEvent, payload: Record<string, unknown>): Promise<boolean> {
  let isNew = false;
  try {
    await deps.db.transaction(async (trx) => {
      isNew = await insertEventOnce(trx, event);
      if (!isNew) return;
      let outcome: Awaited<ReturnType<typeof recordPlatformSubmission>>;
      try {
        outcome = await recordPlatformSubmission(trx, event.accountId, {
          connectionId: event.connectionId,
          siteId: event.siteId,
          eventId: event.eventId,
          payload,
          historical: false,
        });
      } catch (err) {
        throw new LedgerFailure(err);
      }
      if (outcome.kind === 'permanent') {
        deps.logger.warn(
          { accountId: event.accountId, connectionId: event.connectionId, siteId: event.siteId, code: outcome.reason },
          'form submission not recorded in the ledger (permanent); the event is kept',
        );
      }
    });
  } catch (err) {
    if (!(err instanceof LedgerFailure)) throw err;
    deps.logger.error(
      { accountId: event.accountId, connectionId: event.connectionId, siteId: event.siteId, error: (err.cause as Error)?.name },
      'form ledger write failed; answered 503 ledger_unavailable so the platform redelivers',
    );
    throw ledgerUnavailable();
  }
  if (isNew) notifySiteEventRelays();
  return isNew;
}

class LedgerFailure extends Error {
  constructor(cause: unknown) {
    super('ledger write failed', { cause });
  }
}

async function stampBestEffort(deps: ReceiverDeps, event: NewEvent): Promise<void> {
  try {
    await stampLastReceived(deps.db, event.accountId, event.connectionId, event.siteId, event.triggerType);
  } catch (err) {
    deps.logger.warn({ connectionId: event.connectionId, error: (err as Error).name }, 'last_received_at could not be stamped');
  }
}
