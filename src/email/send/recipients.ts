import type { Mailbox } from './addresses';

export type RecipientType = 'to' | 'cc' | 'bcc';

/** The state of one recipient of a stored message (see GET /v1/email/emails/{id}). */
export type RecipientState = 'queued' | 'skipped' | 'deferred' | 'sent' | 'delayed' | 'delivered' | 'bounced' | 'complained' | 'failed';

export interface Recipient {
  /** Lower case. */
  email: string;
  type: RecipientType;
}

interface Addressed {
  to: Mailbox[];
  cc: Mailbox[];
  bcc: Mailbox[];
  /** SMTP submission: the envelope decides who receives; an envelope recipient in neither To nor Cc is bcc. */
  envelope?: { to: string[] };
}

/** Every envelope recipient once, in lower case, with the header it came from. */
export function recipientsOf(message: Addressed): Recipient[] {
  const lower = (m: Mailbox) => m.address.toLowerCase();
  const typed = new Map<string, RecipientType>();
  for (const [type, list] of [
    ['to', message.to],
    ['cc', message.cc],
    ['bcc', message.bcc],
  ] as const)
    for (const m of list) if (!typed.has(lower(m))) typed.set(lower(m), type);
  if (!message.envelope) return [...typed].map(([email, type]) => ({ email, type }));
  const envelope = [...new Set(message.envelope.to.map((a) => a.toLowerCase()))];
  return envelope.map((email) => {
    const type = typed.get(email);
    return { email, type: type === 'to' || type === 'cc' ? type : 'bcc' };
  });
}

/** A recipient as a send's answer shows it: its state now, and why it was skipped. */
export interface AnsweredRecipient<S extends string = string> extends Recipient {
  state: S | 'skipped';
  reason?: string;
}

/** The message's recipients for its answer: each in `state`, a suppressed one `skipped` with its reason. */
export function answeredRecipients<S extends string>(
  message: Addressed & { skipped: Array<{ email: string; reason: string }> },
  state: S,
): Array<AnsweredRecipient<S>> {
  const skipped = new Map(message.skipped.map((r) => [r.email, r.reason]));
  return recipientsOf(message).map((r) =>
    skipped.has(r.email) ? { ...r, state: 'skipped', reason: skipped.get(r.email) } : { ...r, state },
  );
}
