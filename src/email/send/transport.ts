import { createTransport, type Transporter } from 'nodemailer';
import type { Mailbox } from './addresses';
import { commitGate } from './commitGate';

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
  /** SMTP submission only (REST never sets them): the message's attachments, carried to the relay as they came. */
  attachments?: RelayAttachment[];
  /** SMTP submission only: the submitted envelope, which decides who receives (bcc = envelope recipients not in to/cc). */
  envelope?: { from: string; to: string[] };
  /**
   * Delivery outcomes: the envelope sender (`bounces+<id>@<EMAIL_RETURN_PATH_DOMAIN>`) and the DSN envelope id.
   * The relay is asked for success, failure and delay notifications (RFC 3461) when it supports DSN.
   */
  returnPath?: { address: string; envelopeId: string };
}

export interface RelayAttachment {
  filename?: string;
  content: Buffer;
  contentType: string;
  contentDisposition?: 'attachment' | 'inline';
  cid?: string;
}

export interface RelayReceipt {
  /** Recipients the relay accepted and refused (a message with one accepted recipient is sent). */
  accepted: string[];
  rejected: string[];
  /** The relay's final reply, e.g. `250 OK: queued as …`. */
  response: string;
}

/** The relay refused the message (`rejected`: an SMTP 4xx/5xx reply) or could not be used (`unavailable`). */
export class RelayError extends Error {
  constructor(
    readonly kind: 'rejected' | 'unavailable',
    readonly smtpCode: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'RelayError';
  }
}

/** The message was held back at the commit point: `reason` is what the gate answered. */
export class RelayWithheld extends Error {
  constructor(readonly reason: Error) {
    super('message withheld before the relay committed it');
    this.name = 'RelayWithheld';
  }
}

export interface Relay {
  /**
   * Hands the message to the relay. `mayCommit` runs when the relay has accepted the envelope and again right
   * before the final `.` of DATA; an error from it withholds the message (RelayWithheld) — nothing is delivered.
   */
  send(message: RelayMessage, mayCommit: () => Error | null): Promise<RelayReceipt>;
  close(): void;
}

/** Bounds of one send: a relay that hangs answers 502 instead of holding the request. */
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

function openRelay(smtpUrl: string): Relay {
  const transporter: Transporter = createTransport({ ...POOL_OPTIONS, url: smtpUrl });
  // The gate of each message in flight, by its Message-ID (the only per-message handle the plugin sees).
  const gates = new Map<string, () => Error | null>();
  transporter.use('stream', (mail, done) => {
    const gate = gates.get(mail.data.messageId ?? '');
    if (gate && mail.message) mail.message.processFunc((input) => commitGate(input, gate));
    done();
  });

  return {
    async send(message, mayCommit) {
      let withheld: Error | null = null;
      // nodemailer rewrites the error a stream fails with, so the gate fails with a plain one and keeps the reason.
      gates.set(message.messageId, () => {
        withheld = mayCommit();
        return withheld ? new Error('withheld') : null;
      });
      try {
        const info = await transporter.sendMail({
          messageId: message.messageId,
          from: address(message.from),
          to: message.to.map(address),
          cc: message.cc.map(address),
          bcc: message.bcc.map(address),
          replyTo: message.replyTo.map(address),
          subject: message.subject,
          ...(message.html !== null ? { html: message.html } : {}),
          ...(message.text !== null ? { text: message.text } : {}),
          headers: message.headers,
          ...(message.attachments?.length ? { attachments: message.attachments } : {}),
          ...envelopeOf(message),
          signal: AbortSignal.timeout(SEND_DEADLINE_MS),
        });
        return {
          accepted: (info.accepted ?? []).map(String),
          rejected: (info.rejected ?? []).map(String),
          response: String(info.response ?? ''),
        };
      } catch (err) {
        if (withheld) throw new RelayWithheld(withheld);
        throw relayError(err);
      } finally {
        gates.delete(message.messageId);
      }
    },
    close: () => transporter.close(),
  };
}

/** The submitted envelope, or with a return path the VERP sender (recipients as the submission or the headers name them). */
function envelopeOf(message: RelayMessage) {
  if (!message.returnPath) return message.envelope ? { envelope: message.envelope } : {};
  const to = message.envelope?.to ?? [...message.to, ...message.cc, ...message.bcc].map((m) => m.address);
  return {
    envelope: { from: message.returnPath.address, to },
    dsn: { ret: 'HDRS', notify: ['success', 'failure', 'delay'], envid: message.returnPath.envelopeId },
  };
}

const address = (m: Mailbox) => (m.name ? { name: m.name, address: m.address } : m.address);

/** A reply from the relay (MAIL, RCPT, DATA) is a refusal; anything else (connect, TLS, auth, timeout) is unavailability. */
function relayError(err: unknown): RelayError {
  const e = err as { code?: string; responseCode?: number; message?: string };
  if ((e.code === 'EENVELOPE' || e.code === 'EMESSAGE') && typeof e.responseCode === 'number') {
    return new RelayError('rejected', e.responseCode, `the SMTP relay refused the message (${e.responseCode})`);
  }
  const what =
    e.code === 'EAUTH'
      ? 'refused the configured credentials'
      : e.code === 'ETIMEDOUT' || e.code === 'EABORT' || e.code === 'ABORT_ERR'
        ? 'did not answer in time'
        : 'could not be reached';
  return new RelayError('unavailable', typeof e.responseCode === 'number' ? e.responseCode : null, `the SMTP relay ${what}`);
}
