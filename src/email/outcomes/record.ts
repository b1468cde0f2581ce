import type { AppDeps } from '../../deps';
import { addSuppression } from '../suppressions/service';
import { emitEmailEvents } from '../webhooks/service';
import { findSentMessage, insertOutcome, outcomeSeen } from './store';
import type { Outcome, OutcomeEventType } from './types';
import { markRecipientOutcome } from '../send/queueStore';
import type { RecipientState } from '../send/recipients';

/** The recipient's state a report leaves (unless it already has a more telling one). */
const RECIPIENT_STATE: Record<OutcomeEventType, RecipientState> = {
  'email.delivered': 'delivered',
  'email.bounced': 'bounced',
  'email.complained': 'complained',
  'email.delivery_delayed': 'delayed',
};

export type RecordResult = 'recorded' | 'duplicate' | 'unknown_message' | 'unknown_recipient';

/**
 * Records one recipient's outcome of a sent email: its event row, the recipient's state, the email's first time of
 * that kind and latest outcome, the recipient's suppression on a hard bounce or a complaint, and the webhook event — one transaction.
 * A report for no email of ours, for someone the email never went to, or repeating an outcome already recorded,
 * changes nothing (the caller ignores it quietly).
 */
export async function recordOutcome(
  deps: Pick<AppDeps, 'db' | 'temporal' | 'metrics' | 'logger'>,
  messageId: string,
  outcome: Outcome,
  options: { suppress?: boolean; test?: boolean } = {},
): Promise<RecordResult> {
  const message = await findSentMessage(deps.db, messageId);
  if (!message) return 'unknown_message';
  const recipient = outcome.recipient.toLowerCase();
  const recipients = (message.recipients ?? message.to_addresses).map((a) => a.toLowerCase());
  if (!recipients.includes(recipient)) return 'unknown_recipient';
  // Relays resend reports; a delay may repeat (each retry), the other outcomes happen once per recipient.
  if (outcome.type !== 'email.delivery_delayed') {
    if (await outcomeSeen(deps.db, message.id, outcome.type, recipient)) return 'duplicate';
  }
  const at = new Date();
  await deps.db.transaction(async (trx) => {
    await insertOutcome(trx, message, { ...outcome, recipient }, at);
    await markRecipientOutcome(trx, message.id, recipient, RECIPIENT_STATE[outcome.type], outcome.detail);
    const suppressed = outcome.suppress && options.suppress !== false;
    if (suppressed) await addSuppression(trx, message.account_id, recipient, outcome.suppress!, message.id);
    await emitEmailEvents(
      deps,
      message.account_id,
      [
        {
          type: outcome.type,
          data: {
            email_id: message.id,
            message_id: message.smtp_message_id,
            from: message.from_address,
            to: message.to_addresses,
            subject: message.subject,
            tags: message.tags,
            recipient,
            ...outcome.detail,
            ...(suppressed ? { suppressed: true } : {}),
            ...(options.test ? { test: true } : {}),
            occurred_at: at.toISOString(),
          },
        },
      ],
      trx,
    );
  });
  return 'recorded';
}
