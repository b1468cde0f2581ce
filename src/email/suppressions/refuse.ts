import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import type { ErrorSpec } from '../../http/route';
import type { EmailKeyAuth } from '../keys/authenticate';
import type { Mailbox } from '../send/addresses';
import { emitEmailEvents, type EmailEventInput } from '../webhooks/service';
import { suppressionsAmong, type SuppressionRow } from './service';

/** For the send and batch routes' `errors` (in a batch, the failing message's result). */
export const recipientSuppressedError: ErrorSpec = {
  status: 422,
  code: 'recipient_suppressed',
  description:
    "Every recipient (to, cc, bcc) is on the account's suppression list (`recipients`: each address and its reason); nothing was sent, and each gets an `email.suppressed` event. A message with at least one other recipient is sent to the others and answers the suppressed ones in `skipped`. See `/v1/email/suppressions`.",
};

/** A recipient left out of a message because it is suppressed. */
export interface SkippedRecipient {
  email: string;
  reason: string;
}

/** The `email.suppressed` event of each suppressed recipient a message (REST, SMTP, scheduled) leaves out. */
export function suppressedEvents(
  suppressed: Array<Pick<SuppressionRow, 'email' | 'reason' | 'created_at'>>,
  message: { from: { address: string } | string; subject?: string | null; tags?: unknown },
  test: boolean,
): EmailEventInput[] {
  const at = new Date().toISOString();
  return suppressed.map((s) => ({
    type: 'email.suppressed' as const,
    data: {
      recipient: s.email,
      reason: s.reason,
      suppressed_since: s.created_at.toISOString(),
      from: typeof message.from === 'string' ? message.from : message.from.address,
      subject: message.subject ?? null,
      tags: message.tags ?? [],
      test,
      refused_at: at,
    },
  }));
}

interface Addressed {
  from: Mailbox;
  to: Mailbox[];
  cc: Mailbox[];
  bcc: Mailbox[];
  subject?: string | null;
  tags?: unknown;
  envelope?: { to: string[] };
}

/**
 * The message's suppressed recipients (to, cc, bcc or an SMTP envelope recipient), which it skips: each gets an
 * `email.suppressed` event — for test keys too (marked `test: true`), since the list is the account's and
 * integrations build on the event. When every recipient is suppressed, 422 `recipient_suppressed`: nothing is sent.
 */
export async function skipSuppressed(deps: AppDeps, auth: EmailKeyAuth, message: Addressed): Promise<SkippedRecipient[]> {
  const recipients = message.envelope ? message.envelope.to : [...message.to, ...message.cc, ...message.bcc].map((m) => m.address);
  const suppressed = await suppressionsAmong(deps.db, auth.accountId, recipients);
  if (suppressed.length === 0) return [];
  await emitEmailEvents(deps, auth.accountId, suppressedEvents(suppressed, message, auth.environment === 'test'));
  const list = suppressed.map((s) => s.email);
  const everyone = new Set(recipients.map((r) => r.toLowerCase()));
  if (everyone.size > suppressed.length) return suppressed.map((s) => ({ email: s.email, reason: s.reason }));
  throw new ApiError(422, 'recipient_suppressed', `not sent: every recipient is on the suppression list (${list.join(', ')})`, {
    details: { recipients: suppressed.map((s) => ({ email: s.email, reason: s.reason })) },
  });
}
