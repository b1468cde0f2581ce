import type { SMTPServerAddress, SMTPServerSession } from 'smtp-server';
import type { AppDeps } from '../../deps';
import { assertSenderDomain } from '../send/senderDomain';
import { assertKeyActive, type EmailKeyAuth } from '../keys/authenticate';
import { parseMailbox } from '../send/addresses';
import { MAX_RECIPIENTS } from '../send/schema';
import { assertKnownParameters } from './parameters';
import { smtpError } from './replies';
import { refuseSuppressedRecipient } from './suppressed';

/**
 * MAIL FROM: the key still active, only parameters the server offers, a real sender (no null reverse path: bounces
 * are not submitted), and its domain allowed for the key and verified for the account — the rules REST applies to
 * `from`, answered before DATA. The From header must then use the same domain (checked at the end of DATA).
 */
export async function checkSender(deps: AppDeps, auth: EmailKeyAuth, mailFrom: SMTPServerAddress): Promise<void> {
  assertKeyActive(auth);
  assertKnownParameters(mailFrom.args, 'mail');
  if (!mailFrom.address) throw smtpError('null_sender', 'a submission needs a sender address (MAIL FROM:<> is for bounces)', 403);
  const parsed = parseMailbox(mailFrom.address);
  if (!parsed.ok) throw smtpError('invalid_sender', `MAIL FROM ${parsed.error}`);
  await assertSenderDomain(deps, auth, parsed.mailbox.domain);
}

/**
 * RCPT TO: the key still active, no parameters, at most 50 envelope recipients (a repeated one replaces itself; the
 * 51st is 452 so the client sends the rest in another transaction), a valid address, and not a suppressed one.
 * Only envelope recipients receive the message, so only they count.
 */
export async function checkRecipient(
  deps: AppDeps,
  auth: EmailKeyAuth,
  rcpt: SMTPServerAddress,
  session: SMTPServerSession,
): Promise<void> {
  assertKeyActive(auth);
  assertKnownParameters(rcpt.args, 'rcpt');
  const accepted = session.envelope.rcptTo;
  const repeated = accepted.some((r) => r.address.toLowerCase() === rcpt.address.toLowerCase());
  if (!repeated && accepted.length >= MAX_RECIPIENTS) {
    throw smtpError('too_many_recipients', `at most ${MAX_RECIPIENTS} recipients per message; send the rest in another`);
  }
  const parsed = parseMailbox(rcpt.address);
  if (!parsed.ok) throw smtpError('invalid_recipient', `recipient ${parsed.error}`);
  await refuseSuppressedRecipient(deps, auth, parsed.mailbox.address, session.envelope.mailFrom ? session.envelope.mailFrom.address : '');
}
