import type { AppDeps } from '../../deps';
import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';
import { countEmailSends } from '../../telemetry/metrics';
import { assertKeyActive, type EmailKeyAuth } from '../keys/authenticate';
import { dispatchRecordedEvents, emitEmailEvents, type EmailEventInput } from '../webhooks/service';
import { formatMailbox } from './addresses';
import type { PreparedMessage } from './prepare';
import * as store from './store';
import { RelayError, relayFor, RelayWithheld } from './transport';

export type Delivery =
  /** `rejected`: recipients the relay refused while it took the message for the others. */
  | { message: PreparedMessage; outcome: 'sent'; sentAt: Date; rejected: string[] }
  | { message: PreparedMessage; outcome: 'failed'; error: ApiError }
  /** Held back at the commit point (the key was revoked): nothing left, nothing is recorded. */
  | { message: PreparedMessage; outcome: 'withheld'; error: ApiError };

/**
 * Live sends: each message is recorded `sending`, handed to the relay (pooled connections from SMTP_URL) with the
 * key's revocation checked at the commit point, then marked sent or failed with its `email.sent` / `email.failed`
 * event in one transaction. A message withheld because the key was revoked leaves no row and no event.
 */
export async function deliverLive(deps: AppDeps, auth: EmailKeyAuth, messages: PreparedMessage[]): Promise<Delivery[]> {
  await store.insertSending(
    deps.db,
    auth.accountId,
    messages.map((m) => ({
      id: m.id,
      key_id: auth.keyId,
      from_address: m.from.address,
      to_addresses: m.to.map((t) => t.address),
      subject: m.subject,
      tags: m.tags,
      smtp_message_id: m.messageId,
      recipients: store.envelopeRecipients(m),
    })),
  );
  const stillActive = () => {
    try {
      assertKeyActive(auth);
      return null;
    } catch (err) {
      return err as Error;
    }
  };
  const deliveries = await relayAll(deps.config.SMTP_URL!, messages, stillActive);
  if (deliveries.every((d) => d.outcome === 'sent')) {
    // The usual case: one statement instead of a transaction (BEGIN, an UPDATE and an INSERT per message, COMMIT).
    const sent = deliveries as Array<Extract<Delivery, { outcome: 'sent' }>>;
    const ids = await store.markSentWithEvents(
      deps.db,
      auth.accountId,
      sent.map((d) => ({ id: d.message.id, sentAt: d.sentAt, event: sentEventData(d) })),
    );
    dispatchRecordedEvents(deps, auth.accountId, ids);
    return deliveries;
  }
  await deps.db.transaction(async (trx) => {
    const events = await recordOutcomes(trx, auth.accountId, deliveries);
    await emitEmailEvents(deps, auth.accountId, events, trx);
  });
  return deliveries;
}

/** Hands every message to the relay of `smtpUrl` at once; `mayCommit` is asked at the commit point of each. */
export function relayAll(smtpUrl: string, messages: PreparedMessage[], mayCommit: () => Error | null): Promise<Delivery[]> {
  const relay = relayFor(smtpUrl);
  return Promise.all(
    messages.map((message) =>
      relay.send(message, mayCommit).then(
        (receipt): Delivery => counted({ message, outcome: 'sent', sentAt: new Date(), rejected: receipt.rejected }),
        (err): Delivery => {
          if (err instanceof RelayWithheld) return counted({ message, outcome: 'withheld', error: err.reason as ApiError });
          if (err instanceof RelayError) return counted({ message, outcome: 'failed', error: relayFailure(message, err) });
          throw err;
        },
      ),
    ),
  );
}

function counted(delivery: Delivery): Delivery {
  countEmailSends(delivery.outcome);
  return delivery;
}

function relayFailure(message: PreparedMessage, err: RelayError): ApiError {
  const details = { id: message.id, ...(err.smtpCode !== null ? { smtp_code: err.smtpCode } : {}) };
  return err.kind === 'rejected'
    ? new ApiError(502, 'smtp_rejected', err.message, { details })
    : new ApiError(502, 'smtp_unavailable', err.message, { details });
}

/**
 * Marks each message sent or failed (a withheld one's row goes) in the caller's transaction, and answers the
 * `email.sent` / `email.failed` events to record with them.
 */
export async function recordOutcomes(trx: Knex.Transaction, accountId: string, deliveries: Delivery[]): Promise<EmailEventInput[]> {
  const events: EmailEventInput[] = [];
  for (const d of deliveries) {
    if (d.outcome === 'sent') {
      await store.markSent(trx, accountId, d.message.id, d.sentAt);
      events.push({ type: 'email.sent', data: sentEventData(d) });
    } else if (d.outcome === 'failed') {
      await store.markFailed(trx, accountId, d.message.id, d.error.code);
      const smtpCode = d.error.extra.details?.smtp_code;
      events.push({
        type: 'email.failed',
        data: {
          ...eventData(d.message),
          error: { code: d.error.code, message: d.error.message, ...(smtpCode !== undefined ? { smtp_code: smtpCode } : {}) },
        },
      });
    } else {
      await store.deleteWithheld(trx, accountId, d.message.id);
    }
  }
  return events;
}

function sentEventData(d: Extract<Delivery, { outcome: 'sent' }>): Record<string, unknown> {
  const rejected = d.rejected.length > 0 ? { rejected_recipients: d.rejected } : {};
  return { ...eventData(d.message), sent_at: d.sentAt.toISOString(), ...rejected };
}

/** What a webhook receiver learns about a message: never bcc. Sent, scheduled and simulated events add their times. */
export function eventData(m: PreparedMessage): Record<string, unknown> {
  return {
    email_id: m.id,
    message_id: m.messageId,
    from: formatMailbox(m.from),
    to: m.to.map((t) => t.address),
    ...(m.cc.length > 0 ? { cc: m.cc.map((c) => c.address) } : {}),
    subject: m.subject,
    tags: m.tags,
    created_at: m.createdAt.toISOString(),
  };
}
