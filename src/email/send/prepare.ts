import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../deps';
import type { EmailKeyAuth } from '../keys/authenticate';
import { skipSuppressed, type SkippedRecipient } from '../suppressions/refuse';
import { renderTemplate } from '../templates/service';
import { assertUnsubscribeServed } from '../unsubscribe/links';
import type { MessageInput } from './schema';
import { assertSenderDomain } from './senderDomain';
import type { RelayMessage } from './transport';

/** A message that passed every check of its own: ready to admit and send. */
export interface PreparedMessage extends RelayMessage {
  /** The email's id in the API (`email_messages.id` for a live send). */
  id: string;
  tags: MessageInput['tags'];
  createdAt: Date;
  /** Suppressed recipients the message leaves out (it goes to the others). */
  skipped: SkippedRecipient[];
  /** Each recipient's copy carries its own one-click unsubscribe link (personalize.ts). */
  unsubscribe?: boolean;
}

/**
 * The sender domain rules (senderDomain.ts: 403 `domain_not_allowed`, `domain_not_verified`, and for a live key
 * `domain_dkim_not_verified`), then the template's 400s; 422 `recipient_suppressed` when every recipient is on the
 * account's suppression list (with an `email.suppressed` event each). Reads caches, the template when one is named,
 * and the suppression list.
 */
export async function prepareMessage(
  deps: AppDeps,
  auth: EmailKeyAuth,
  input: MessageInput & Pick<RelayMessage, 'attachments' | 'envelope'>,
): Promise<PreparedMessage> {
  const domain = input.from.domain;
  if (input.unsubscribe) assertUnsubscribeServed(deps.config);
  await assertSenderDomain(deps, auth, domain, { field: 'from' });
  let { subject, html, text } = input;
  if (input.template) {
    const rendered = await renderTemplate(deps.db, auth.accountId, input.template, input.template.variables);
    subject ??= rendered.subject;
    html = rendered.html;
    text = rendered.text;
  }
  const skipped = await skipSuppressed(deps, auth, input);
  const id = randomUUID();
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
    ...(input.attachments ? { attachments: input.attachments } : {}),
    ...(input.envelope ? { envelope: input.envelope } : {}),
    tags: input.tags,
    createdAt: new Date(),
    skipped,
    ...(input.unsubscribe ? { unsubscribe: true } : {}),
  };
}
