import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { isDomainVerified } from '../domains/service';
import { senderDomainAllowed, type EmailKeyAuth } from '../keys/authenticate';
import { refuseSuppressed } from '../suppressions/refuse';
import { renderTemplate } from '../templates/service';
import type { MessageInput } from './schema';
import type { RelayMessage } from './transport';

/** A message that passed every check of its own: ready to admit and send. */
export interface PreparedMessage extends RelayMessage {
  /** The email's id in the API (`email_messages.id` for a live send). */
  id: string;
  tags: MessageInput['tags'];
  createdAt: Date;
}

/**
 * The sender domain rules, then the template: 403 `domain_not_allowed` when the key has a domain allowlist without
 * the from domain, 403 `domain_not_verified` when the domain is not verified for the account (exact match; a
 * subdomain needs its own verification); the template's 400s; 422 `recipient_suppressed` when a recipient is on the
 * account's suppression list (with an `email.suppressed` event each). Reads caches, the template when one is named,
 * and the suppression list.
 */
export async function prepareMessage(
  deps: AppDeps,
  auth: EmailKeyAuth,
  input: MessageInput & Pick<RelayMessage, 'attachments' | 'envelope'>,
): Promise<PreparedMessage> {
  const domain = input.from.domain;
  if (!senderDomainAllowed(auth, domain)) {
    throw new ApiError(403, 'domain_not_allowed', `this email API key may not send from ${domain} (not in its domain allowlist)`, {
      details: { field: 'from' },
    });
  }
  if (!(await isDomainVerified(deps.db, auth.accountId, domain))) {
    throw new ApiError(403, 'domain_not_verified', `${domain} is not a verified sender domain of this account; add and verify it first`, {
      details: { field: 'from' },
    });
  }
  let { subject, html, text } = input;
  if (input.template) {
    const rendered = await renderTemplate(deps.db, auth.accountId, input.template, input.template.variables);
    subject ??= rendered.subject;
    html = rendered.html;
    text = rendered.text;
  }
  await refuseSuppressed(deps, auth, input);
  const id = randomUUID();
  const returnDomain = deps.config.EMAIL_RETURN_PATH_DOMAIN;
  return {
    id,
    messageId: `<${id}@${domain}>`,
    from: input.from,
    to: input.to,
    cc: input.cc,
    bcc: input.bcc,
    replyTo: input.replyTo,
    subject: subject ?? '',
    html,
    text,
    headers: input.headers,
    // Only SMTP submission gives these; a REST message has neither.
    ...(input.attachments ? { attachments: input.attachments } : {}),
    ...(input.envelope ? { envelope: input.envelope } : {}),
    // VERP: bounces and reports come back to an address naming the email (src/email/returnPath).
    ...(returnDomain ? { returnPath: { address: `bounces+${id}@${returnDomain}`, envelopeId: id } } : {}),
    tags: input.tags,
    createdAt: new Date(),
  };
}
