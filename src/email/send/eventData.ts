import { formatMailbox } from './addresses';
import type { PreparedMessage } from './prepare';

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
