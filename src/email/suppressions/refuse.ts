import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import type { ErrorSpec } from '../../http/route';
import type { EmailKeyAuth } from '../keys/authenticate';
import type { Mailbox } from '../send/addresses';
import { emitEmailEvents } from '../webhooks/service';
import { suppressionsAmong } from './service';

/** For the send and batch routes' `errors` (in a batch, the failing message's result). */
export const recipientSuppressedError: ErrorSpec = {
  status: 422,
  code: 'recipient_suppressed',
  description:
    "A recipient (to, cc, bcc) is on the account's suppression list (`recipients`: each address and its reason); nothing was sent, and each gets an `email.suppressed` event. See `/v1/email/suppressions`.",
};

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
 * 422 `recipient_suppressed` when the message names a suppressed address (to, cc, bcc or an SMTP envelope
 * recipient): nothing is sent, and each suppressed recipient gets an `email.suppressed` event — for test keys too
 * (marked `test: true`), since the list is the account's and integrations build on the event.
 */
export async function refuseSuppressed(deps: AppDeps, auth: EmailKeyAuth, message: Addressed): Promise<void> {
  const recipients = [...message.to, ...message.cc, ...message.bcc].map((m) => m.address).concat(message.envelope?.to ?? []);
  const suppressed = await suppressionsAmong(deps.db, auth.accountId, recipients);
  if (suppressed.length === 0) return;
  const at = new Date().toISOString();
  await emitEmailEvents(
    deps,
    auth.accountId,
    suppressed.map((s) => ({
      type: 'email.suppressed' as const,
      data: {
        recipient: s.email,
        reason: s.reason,
        suppressed_since: s.created_at.toISOString(),
        from: message.from.address,
        subject: message.subject ?? null,
        tags: message.tags ?? [],
        test: auth.environment === 'test',
        refused_at: at,
      },
    })),
  );
  const list = suppressed.map((s) => s.email);
  throw new ApiError(
    422,
    'recipient_suppressed',
    `not sent: ${list.join(', ')} ${list.length === 1 ? 'is' : 'are'} on the suppression list`,
    {
      details: { recipients: suppressed.map((s) => ({ email: s.email, reason: s.reason })) },
    },
  );
}
