import type { AppDeps } from '../../deps';
import type { EmailKeyAuth } from '../keys/authenticate';
import { suppressedEvents } from '../suppressions/refuse';
import { suppressionsAmong } from '../suppressions/service';
import { emitEmailEvents } from '../webhooks/service';
import { smtpError } from './replies';

/**
 * A RCPT naming an address the account suppresses is refused on its own (550 5.1.1, the reason named), so the client
 * sends the message to its other recipients; the recipient gets its `email.suppressed` event, as a REST send's does.
 */
export async function refuseSuppressedRecipient(deps: AppDeps, auth: EmailKeyAuth, recipient: string, sender: string): Promise<void> {
  const [row] = await suppressionsAmong(deps.db, auth.accountId, [recipient]);
  if (!row) return;
  await emitEmailEvents(deps, auth.accountId, suppressedEvents([row], { from: sender }, auth.environment === 'test'));
  throw smtpError(
    'recipient_suppressed',
    `${row.email} is on this account's suppression list (reason: ${row.reason}); nothing is sent to it (see /v1/email/suppressions)`,
    422,
    { details: { recipients: [{ email: row.email, reason: row.reason }] } },
  );
}
