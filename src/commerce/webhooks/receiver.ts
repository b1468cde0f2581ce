import type { AppDeps } from '../../deps';
import { createTokenCipher } from '../../crypto/tokenEnvelope';
import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../../http/jsonDepth';
import { unstorablePathOf } from '../../http/validate';
import { countedDelivery, type DeliveryNote } from '../../telemetry/metrics';
import { notifyDispatchers } from './dispatcher';
import { GroupCommit } from './groupCommit';
import { recordDeliveryOutcome, type DeliveryRef } from './outcomes';
import { RecentDeliveries } from './recentDeliveries';
import { verifyWebhookSignature } from './signature';
import * as store from './store';
import type { WebhookTarget } from './store';
import { WebhookTargets } from './targets';

export interface IncomingDelivery {
  rawBody: Buffer;
  shopDomain: string | undefined;
  signature: string | undefined;
  topic: string | undefined;
  webhookId: string | undefined;
}

export interface ReceiptResult {
  duplicate: boolean;
}

type ReceiverDeps = Pick<AppDeps, 'db' | 'logger' | 'config'>;

const FOREIGN_KEY_VIOLATION = '23503';
const TOPIC = /^[a-z][a-z_]*\/[a-z][a-z_]*$/;
const WEBHOOK_ID = /^[\x21-\x7e]{1,200}$/;

export const shopUnknown = () => new ApiError(404, 'commerce_shop_unknown', 'no connected shop has this domain');
export const signatureInvalid = () => new ApiError(401, 'webhook_signature_invalid', 'the delivery signature does not match');

/**
 * The account's app client_secret, plus the shop's own webhook secret when one is stored (it may differ for shops
 * whose webhooks were not created by OAuth). Resolved once per looked-up target (targets are reused for
 * TARGET_CACHE_TTL_MS), so the stored secret is not decrypted per delivery.
 */
function secretsOf(deps: ReceiverDeps, state: ReceiverState, target: WebhookTarget): string[] {
  let secrets = state.secrets.get(target);
  if (secrets) return secrets;
  secrets = target.clientSecret ? [target.clientSecret] : [];
  if (target.webhookSecretEnc) {
    try {
      const cipher = createTokenCipher(deps.config.COMMERCE_TOKEN_ENCRYPTION_KEY, deps.config.COMMERCE_TOKEN_ENCRYPTION_KEY_PREVIOUS);
      secrets.push(cipher.decrypt(target.webhookSecretEnc).plaintext);
    } catch {
      deps.logger.warn(
        { connectionId: target.connectionId },
        'the shop webhook secret cannot be decrypted; verifying with the app client_secret only',
      );
    }
  }
  state.secrets.set(target, secrets);
  return secrets;
}

/** A shop's subscription to a topic gets `last_received_at` at most this often per receiver (the health sweep reads it in hours). */
export const STAMP_INTERVAL_MS = 10_000;

/** The in-process state of one receiver (one per app): dedup set, shop lookups, group commit, stamp throttle. */
export class ReceiverState {
  readonly targets = new WebhookTargets();
  /** The verifying secrets of each looked-up target object (see secretsOf). */
  readonly secrets = new WeakMap<WebhookTarget, string[]>();
  private commit?: { db: Knex; group: GroupCommit };
  private readonly stamped = new Map<string, number>();

  constructor(readonly recent: RecentDeliveries = new RecentDeliveries()) {}

  groupCommitOf(db: Knex): GroupCommit {
    if (this.commit?.db !== db) this.commit = { db, group: new GroupCommit(db, () => notifyDispatchers()) };
    return this.commit.group;
  }

  /** True when this (connection, topic) was not stamped by this receiver within the interval; claims the stamp. */
  claimStamp(key: string, now = Date.now()): boolean {
    const last = this.stamped.get(key);
    if (last !== undefined && now - last < STAMP_INTERVAL_MS) return false;
    if (this.stamped.size > 10_000) this.stamped.clear();
    this.stamped.set(key, now);
    return true;
  }
}

/**
 * The receiver's five steps (doc3), given the raw body the route read byte for byte (step 1):
 * 2. the shop-domain header names a connection, else 404 `commerce_shop_unknown` (the platform does not retry);
 * 3. the base64 HMAC header matches the raw body under the app client_secret, else 401 `webhook_signature_invalid`;
 * 4. duplicates — same connection and webhook id — are dropped after verification: first the in-memory 10-minute
 *    set, then the durable record, which holds across restarts and replicas;
 * 5. the delivery is recorded WITH its payload (group commit) and the 200 follows the commit; the relay
 *    (dispatcher.ts) hands it to the shop's workflow afterwards, so the answer never waits on Temporal or CRM work.
 *    A verified body that is not JSON, or that holds U+0000 or a lone surrogate (jsonb cannot store either), is
 *    recorded as a failed `invalid_json` delivery, one nested deeper than MAX_JSON_DEPTH as `json_too_deep` (200;
 *    a retry would carry the same).
 * `last_received_at` is stamped best-effort, at most every STAMP_INTERVAL_MS per shop and topic and receiver.
 */
export function receiveDelivery(deps: ReceiverDeps, state: ReceiverState, incoming: IncomingDelivery): Promise<ReceiptResult> {
  return countedDelivery(
    'commerce',
    (note) => receive(deps, state, incoming, note),
    (receipt) => (receipt.duplicate ? 'duplicate' : 'accepted'),
  );
}

async function receive(deps: ReceiverDeps, state: ReceiverState, incoming: IncomingDelivery, note: DeliveryNote): Promise<ReceiptResult> {
  const shopDomain = incoming.shopDomain?.trim().toLowerCase();
  const target = shopDomain ? await state.targets.lookup(deps.db, shopDomain) : undefined;
  if (!target) throw shopUnknown();
  if (!verifyWebhookSignature(secretsOf(deps, state, target), incoming.rawBody, incoming.signature)) throw signatureInvalid();

  const topic = incoming.topic?.trim() ?? '';
  const webhookId = incoming.webhookId?.trim() ?? '';
  if (!TOPIC.test(topic) || !WEBHOOK_ID.test(webhookId)) {
    throw new ApiError(400, 'webhook_headers_missing', 'X-Commerce-Topic and X-Commerce-Webhook-Id must name the topic and the delivery');
  }
  note.topic = topic;

  const key = `${target.connectionId}:${webhookId}`;
  const duplicate = state.recent.has(key) || !(await record(deps, state, target, { topic, webhookId, rawBody: incoming.rawBody }));
  state.recent.add(key);
  if (state.claimStamp(`${target.connectionId}:${topic}`)) await stampBestEffort(deps, target, topic);
  return { duplicate };
}

/** True when this call recorded the delivery; false when it was already recorded. */
async function record(
  deps: ReceiverDeps,
  state: ReceiverState,
  target: WebhookTarget,
  d: { topic: string; webhookId: string; rawBody: Buffer },
): Promise<boolean> {
  const ref = {
    accountId: target.accountId,
    connectionId: target.connectionId,
    shopDomain: target.shopDomain,
    webhookId: d.webhookId,
    topic: d.topic,
  };
  // The handlers walk the payload: a body nested past the bound is never stored for them.
  if (jsonNestsDeeperThan(d.rawBody)) return recordUnusable(deps, target, ref, tooDeep());
  const text = d.rawBody.toString('utf8');
  try {
    return await state.groupCommitOf(deps.db).record({ ...ref, payloadJson: text });
  } catch (err) {
    // Postgres parses the body as jsonb in the insert and refuses what it cannot store, failing that row alone (the
    // group commit retries a failed statement row by row); only then is the body parsed here, to tell why.
    const unusable = unusableJson(text);
    if (!unusable) {
      // A shop reused from the lookup cache whose connection was deleted meanwhile: look it up afresh next time.
      if ((err as { code?: string }).code === FOREIGN_KEY_VIOLATION) state.targets.forget(target.shopDomain);
      throw err;
    }
    return recordUnusable(deps, target, ref, unusable);
  }
}

const tooDeep = () => ({
  code: 'json_too_deep',
  message: `the verified body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
});

/** A verified body no handler can take, recorded as a failed delivery without its payload (answered 200). */
async function recordUnusable(
  deps: ReceiverDeps,
  target: WebhookTarget,
  ref: DeliveryRef,
  unusable: { code: string; message: string },
): Promise<boolean> {
  const recorded = await store.recordFinishedDelivery(deps.db, target.accountId, { ...ref, outcome: 'failed', errorCode: unusable.code });
  if (recorded) await recordDeliveryOutcome(deps.db, ref, { outcome: 'failed', ...unusable });
  return recorded;
}

/** Why a verified body cannot be stored as jsonb for its handler, or undefined when it can. */
function unusableJson(text: string): { code: string; message: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { code: 'invalid_json', message: 'the verified body is not valid JSON' };
  }
  // Postgres jsonb refuses U+0000 and a lone UTF-16 surrogate; JSON carries either only as a \u escape. Such a body
  // must not answer 5xx (the platform would retry it for 48 hours).
  const unstorable = text.includes('\\u') ? unstorablePathOf(parsed) : null;
  if (unstorable) return { code: 'invalid_json', message: `the verified body cannot be stored: a string ${unstorable.message}` };
  return undefined;
}

async function stampBestEffort(deps: ReceiverDeps, target: WebhookTarget, topic: string): Promise<void> {
  try {
    await store.stampLastReceived(deps.db, target.accountId, target.connectionId, topic);
  } catch (err) {
    deps.logger.warn({ connectionId: target.connectionId, topic, error: (err as Error).name }, 'last_received_at could not be stamped');
  }
}
