import type { AppDeps } from '../../deps';
import { createTokenCipher } from '../../crypto/tokenEnvelope';
import { ApiError } from '../../http/errors';
import type { CommerceDelivery } from '../../../workflows/commerceMessages';
import { recordDeliveryOutcome } from './outcomes';
import { handOffDelivery } from './handoff';
import type { RecentDeliveries } from './recentDeliveries';
import { verifyWebhookSignature } from './signature';
import * as store from './store';
import type { WebhookTarget } from './store';

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

type ReceiverDeps = Pick<AppDeps, 'db' | 'temporal' | 'logger' | 'config'>;

const TOPIC = /^[a-z][a-z_]*\/[a-z][a-z_]*$/;
const WEBHOOK_ID = /^[\x21-\x7e]{1,200}$/;

export const shopUnknown = () => new ApiError(404, 'commerce_shop_unknown', 'no connected shop has this domain');
export const signatureInvalid = () => new ApiError(401, 'webhook_signature_invalid', 'the delivery signature does not match');

/** The account's app client_secret, plus the shop's own webhook secret when one is stored (it may differ for shops whose webhooks were not created by OAuth). */
function secretsOf(deps: ReceiverDeps, target: WebhookTarget): string[] {
  const secrets = target.clientSecret ? [target.clientSecret] : [];
  if (target.webhookSecretEnc) {
    try {
      const cipher = createTokenCipher(deps.config.COMMERCE_TOKEN_ENCRYPTION_KEY, deps.config.COMMERCE_TOKEN_ENCRYPTION_KEY_PREVIOUS);
      secrets.push(cipher.decrypt(target.webhookSecretEnc).plaintext);
    } catch {
      deps.logger.warn({ connectionId: target.connectionId }, 'the shop webhook secret cannot be decrypted; verifying with the app client_secret only');
    }
  }
  return secrets;
}

function parsePayload(rawBody: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(rawBody.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

/**
 * The receiver's five steps (doc3), given the raw body the route read byte for byte (step 1):
 * 2. the shop-domain header names a connection, else 404 `commerce_shop_unknown` (the platform does not retry);
 * 3. the base64 HMAC header matches the raw body under the app client_secret, else 401 `webhook_signature_invalid`;
 * 4. duplicates — same connection and webhook id — are dropped after verification: first the in-memory 10-minute
 *    set, then the durable record, which holds across restarts and replicas;
 * 5. the delivery is recorded and handed to the shop's workflow, which routes it by topic; the answer is 200 whether
 *    its handler later succeeds or fails. A hand-off Temporal refuses is 503 and records nothing, so the platform
 *    retries. A verified body that is not JSON is recorded as a failed delivery (200; a retry would carry the same).
 * `last_received_at` is stamped best-effort on every verified delivery.
 */
export async function receiveDelivery(deps: ReceiverDeps, recent: RecentDeliveries, incoming: IncomingDelivery): Promise<ReceiptResult> {
  const shopDomain = incoming.shopDomain?.trim().toLowerCase();
  const target = shopDomain ? await store.findWebhookTarget(deps.db, shopDomain) : undefined;
  if (!target) throw shopUnknown();
  if (!verifyWebhookSignature(secretsOf(deps, target), incoming.rawBody, incoming.signature)) throw signatureInvalid();

  const topic = incoming.topic?.trim() ?? '';
  const webhookId = incoming.webhookId?.trim() ?? '';
  if (!TOPIC.test(topic) || !WEBHOOK_ID.test(webhookId)) {
    throw new ApiError(400, 'webhook_headers_missing', 'X-Commerce-Topic and X-Commerce-Webhook-Id must name the topic and the delivery');
  }

  const key = `${target.connectionId}:${webhookId}`;
  const duplicate = recent.has(key) || !(await recordAndHandOff(deps, target, { topic, webhookId, rawBody: incoming.rawBody }));
  recent.add(key);
  await stampBestEffort(deps, target, topic);
  return { duplicate };
}

/** True when this call recorded the delivery (and handed it over); false when it was already recorded. */
async function recordAndHandOff(deps: ReceiverDeps, target: WebhookTarget, d: { topic: string; webhookId: string; rawBody: Buffer }): Promise<boolean> {
  const ref = { accountId: target.accountId, connectionId: target.connectionId, shopDomain: target.shopDomain, webhookId: d.webhookId, topic: d.topic };
  const payload = parsePayload(d.rawBody);
  if (!payload.ok) {
    const recorded = await store.recordDelivery(deps.db, target.accountId, { ...ref, outcome: 'failed', errorCode: 'invalid_json' });
    if (recorded) await recordDeliveryOutcome(deps.db, ref, { outcome: 'failed', code: 'invalid_json', message: 'the verified body is not valid JSON' });
    return recorded;
  }
  const delivery: CommerceDelivery = {
    webhookId: d.webhookId, topic: d.topic, shopDomain: target.shopDomain, receivedAt: new Date().toISOString(), bytes: d.rawBody.length, payload: payload.value,
  };
  // The record commits only once the workflow has the delivery: a refused hand-off rolls it back (503, retried),
  // and a concurrent duplicate — here or on another replica — waits on this row, then finds it.
  return deps.db.transaction(async (trx) => {
    if (!(await store.recordDelivery(trx, target.accountId, ref))) return false;
    await handOffDelivery(deps.temporal, deps.logger, target, delivery);
    return true;
  });
}

async function stampBestEffort(deps: ReceiverDeps, target: WebhookTarget, topic: string): Promise<void> {
  try {
    await store.stampLastReceived(deps.db, target.accountId, target.connectionId, topic);
  } catch (err) {
    deps.logger.warn({ connectionId: target.connectionId, topic, error: (err as Error).name }, 'last_received_at could not be stamped');
  }
}
