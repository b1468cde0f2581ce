import { createTransport, type Transporter } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Mailbox } from './addresses';

/** What the relay gets: the message and its envelope (bcc only in the envelope). */
export interface RelayMessage {
  /** The Message-ID header, `<id@domain>`. */
  messageId: string;
  from: Mailbox;
  to: Mailbox[];
  cc: Mailbox[];
  bcc: Mailbox[];
  replyTo: Mailbox[];
  subject: string;
  html: string | null;
  text: string | null;
  headers: Record<string, string>;
  /** The message's attachments, carried to the relay as they came. */
  attachments?: RelayAttachment[];
  /** SMTP submission only: the submitted envelope, which decides who receives (bcc = envelope recipients not in to/cc). */
  envelope?: { from: string; to: string[] };
}

export interface RelayAttachment {
  filename?: string;
  content: Buffer;
  contentType: string;
  contentDisposition?: 'attachment' | 'inline';
  cid?: string;
}

/** One SMTP transaction's envelope: the sender (a VERP return path or the From address) and its recipients. */
export interface RelayEnvelope {
  from: string;
  to: string[];
  /** Asks the relay for delivery status notifications (RFC 3461): the envelope id, and the recipient as we named it. */
  dsn?: { envelopeId: string; originalRecipient?: string };
}

/** What the relay answered for one recipient of a transaction. */
export interface RecipientReply {
  recipient: string;
  /** `accepted`: the relay took it; `refused`: a 5xx; `deferred`: a 4xx or the relay could not be used. */
  outcome: 'accepted' | 'refused' | 'deferred';
  /** The stage that decided: the connection (unreachable, TLS, AUTH, timeout), MAIL, RCPT or DATA. */
  stage: 'connection' | 'mail' | 'rcpt' | 'data';
  smtpCode: number | null;
  /** The relay's reply text (or what went wrong with the connection), printable and bounded. */
  reply: string;
}

export interface Relay {
  /** One transaction: answers each recipient's reply; never throws for what the relay says or does. */
  deliver(raw: Buffer, envelope: RelayEnvelope): Promise<RecipientReply[]>;
  close(): void;
}

/** Bounds of one transaction: a relay that hangs defers the message instead of holding the attempt. */
const POOL_OPTIONS = {
  pool: true as const,
  maxConnections: 5,
  maxMessages: 100,
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
  // Idle pooled connections say QUIT, so a process with nothing to send holds no sockets.
  idleTimeout: 5_000,
};
const SEND_DEADLINE_MS = 60_000;
const MAX_REPLY = 500;

const relays = new Map<string, Relay>();

/** The pooled relay of an SMTP_URL (one pool per URL per process, made on first use). */
export function relayFor(smtpUrl: string): Relay {
  let relay = relays.get(smtpUrl);
  if (!relay) relays.set(smtpUrl, (relay = openRelay(smtpUrl)));
  return relay;
}

/** Closes the pool of one SMTP_URL (a test's relay going away). */
export function closeRelay(smtpUrl: string): void {
  relays.get(smtpUrl)?.close();
  relays.delete(smtpUrl);
}

/** Closes every pool (shutdown). */
export function closeRelays(): void {
  for (const relay of relays.values()) relay.close();
  relays.clear();
}

/** The message as it goes on the wire (RFC 5322), composed once for every transaction and signature. */
export async function composeMessage(message: RelayMessage): Promise<Buffer> {
  const composer = new MailComposer({
    messageId: message.messageId,
    from: address(message.from),
    to: message.to.map(address),
    cc: message.cc.map(address),
    replyTo: message.replyTo.map(address),
    subject: message.subject,
    ...(message.html !== null ? { html: message.html } : {}),
    ...(message.text !== null ? { text: message.text } : {}),
    headers: message.headers,
    ...(message.attachments?.length ? { attachments: message.attachments } : {}),
  });
  return composer.compile().build();
}

function openRelay(smtpUrl: string): Relay {
  const transporter: Transporter = createTransport({ ...POOL_OPTIONS, url: smtpUrl });
  return {
    async deliver(raw, envelope) {
      try {
        const info = await transporter.sendMail({
          raw,
          envelope: { from: envelope.from, to: envelope.to },
          ...(envelope.dsn
            ? {
                dsn: {
                  ret: 'HDRS',
                  notify: ['success', 'failure', 'delay'],
                  envid: envelope.dsn.envelopeId,
                  ...(envelope.dsn.originalRecipient ? { orcpt: envelope.dsn.originalRecipient } : {}),
                },
              }
            : {}),
          signal: AbortSignal.timeout(SEND_DEADLINE_MS),
        });
        const refusals = repliesOf((info as { rejectedErrors?: unknown[] }).rejectedErrors);
        const accepted = (info.accepted ?? []).map(String).map((recipient): RecipientReply => ({
          recipient,
          outcome: 'accepted',
          stage: 'data',
          smtpCode: codeOf(info.response),
          reply: bounded(String(info.response ?? '')),
        }));
        return [
          ...accepted,
          ...envelope.to
            .filter((r) => !accepted.some((a) => same(a.recipient, r)))
            .map((r) => refusals.get(r.toLowerCase()) ?? unknownReply(r)),
        ];
      } catch (err) {
        return failedTransaction(err, envelope.to);
      }
    },
    close: () => transporter.close(),
  };
}

/** A transaction that failed: per recipient at RCPT when the relay said so, else the same answer for all. */
function failedTransaction(err: unknown, recipients: string[]): RecipientReply[] {
  const e = err as {
    code?: string;
    command?: string;
    responseCode?: number;
    response?: string;
    message?: string;
    rejectedErrors?: unknown[];
  };
  const perRecipient = repliesOf(e.rejectedErrors);
  const stage: RecipientReply['stage'] =
    e.code !== 'EENVELOPE' && e.code !== 'EMESSAGE'
      ? 'connection'
      : e.command === 'MAIL FROM'
        ? 'mail'
        : e.command === 'RCPT TO'
          ? 'rcpt'
          : 'data';
  const code = typeof e.responseCode === 'number' && stage !== 'connection' ? e.responseCode : null;
  const whole: Omit<RecipientReply, 'recipient'> = {
    outcome: code !== null && code >= 500 ? 'refused' : 'deferred',
    stage,
    smtpCode: code,
    reply: bounded(code !== null ? (e.response ?? e.message ?? '') : connectionTrouble(e)),
  };
  return recipients.map((recipient) => perRecipient.get(recipient.toLowerCase()) ?? { recipient, ...whole });
}

/** RCPT refusals by lower-case recipient. */
function repliesOf(errors: unknown[] | undefined): Map<string, RecipientReply> {
  const replies = new Map<string, RecipientReply>();
  for (const raw of errors ?? []) {
    const e = raw as { recipient?: string; responseCode?: number; response?: string };
    if (!e.recipient) continue;
    const code = typeof e.responseCode === 'number' ? e.responseCode : null;
    replies.set(e.recipient.toLowerCase(), {
      recipient: e.recipient,
      outcome: code !== null && code >= 500 ? 'refused' : 'deferred',
      stage: 'rcpt',
      smtpCode: code,
      reply: bounded(e.response ?? ''),
    });
  }
  return replies;
}

const unknownReply = (recipient: string): RecipientReply => ({
  recipient,
  outcome: 'deferred',
  stage: 'data',
  smtpCode: null,
  reply: 'the relay did not say whether it took this recipient',
});

function connectionTrouble(e: { code?: string; message?: string }): string {
  if (e.code === 'EAUTH') return 'the SMTP relay refused the configured credentials';
  if (e.code === 'ETIMEDOUT' || e.code === 'EABORT' || e.code === 'ABORT_ERR') return 'the SMTP relay did not answer in time';
  if (e.code === 'ETLS') return 'TLS with the SMTP relay failed';
  return 'the SMTP relay could not be reached';
}

const codeOf = (response: unknown): number | null => {
  const match = /^(\d{3})/.exec(String(response ?? ''));
  return match ? Number(match[1]) : null;
};
// Replies are the relay's words: printable ASCII and bounded before they are stored or shown.
const bounded = (text: string) =>
  text
    .replace(/[^\x20-\x7e]+/g, ' ')
    .trim()
    .slice(0, MAX_REPLY);
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const address = (m: Mailbox) => (m.name ? { name: m.name, address: m.address } : m.address);
