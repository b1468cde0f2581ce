import { simpleParser, type AddressObject, type EmailAddress, type ParsedMail } from 'mailparser';
import { formatMailbox, parseMailbox, type Mailbox } from '../send/addresses';
import { parseMessage, type FieldError, type MessageInput } from '../send/schema';
import type { RelayAttachment } from '../send/transport';
import { smtpError } from './replies';

/** A submitted message as the send service takes it, with what only SMTP carries. */
export interface SubmittedMessage {
  input: MessageInput & { attachments: RelayAttachment[]; envelope: { from: string; to: string[] } };
  /** The `Idempotency-Key:` header (not sent on). */
  idempotencyKey: string | null;
  /** What identifies the submission for idempotency: the validated message, the envelope, the attachments' digests. */
  fingerprint: unknown;
}

/** Headers the message fields or the MIME structure carry; the send service sets them again itself. */
const STRUCTURAL = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'reply-to',
  'subject',
  'date',
  'message-id',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'content-disposition',
  'content-id',
  'idempotency-key',
]);

const unparseable = (why: string) => smtpError('unparseable_message', `the message could not be read as MIME: ${why}`);

/**
 * Reads the message with a real MIME parser (mailparser), then validates it with the REST schema (`parseMessage`:
 * addresses, subject, html or text, header rules), so both paths share every rule. The envelope decides who
 * receives: it is what the schema judges as the recipients (at most 50, as RCPT already kept it), bcc is every
 * envelope recipient not named in To or Cc, and the addresses To and Cc show are checked as addresses but do not
 * count — a client sending a long To list in several transactions names every address in each.
 */
export async function parseSubmission(raw: Buffer, envelope: { from: string; to: string[] }): Promise<SubmittedMessage> {
  let parsed: ParsedMail;
  try {
    parsed = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true, keepCidLinks: true });
  } catch (err) {
    throw unparseable((err as Error).message);
  }
  if (parsed.headerLines.length === 0) throw unparseable('it has no header section');
  const from = addresses(parsed.from);
  if (from.length !== 1) throw unparseable('it needs exactly one From address');

  const shown = { to: addresses(parsed.to).map(format), cc: addresses(parsed.cc).map(format) };
  const { headers, idempotencyKey } = customHeaders(parsed);
  const body = {
    from: format(from[0]),
    to: envelope.to,
    reply_to: addresses(parsed.replyTo).map(format),
    subject: parsed.subject ?? null,
    html: parsed.html || null,
    text: parsed.text || null,
    headers,
  };
  const result = parseMessage(body, 'message');
  const to = shownMailboxes(shown.to, 'message.to', 1);
  const cc = shownMailboxes(shown.cc, 'message.cc', 0);
  const errors = [...(result.ok ? [] : result.errors), ...to.errors, ...cc.errors];
  if (!result.ok || errors.length > 0) {
    const detail = errors.map((e) => `${e.path}: ${e.message}`).join('; ');
    throw smtpError('validation_failed', `invalid message: ${detail}`, 400, { errors });
  }
  const named = new Set([...to.mailboxes, ...cc.mailboxes].map((m) => m.address.toLowerCase()));
  const bcc = result.message.to.filter((m) => !named.has(m.address.toLowerCase()));
  const attachments = parsed.attachments.map((a): RelayAttachment => ({
    ...(a.filename ? { filename: a.filename } : {}),
    content: a.content,
    contentType: a.contentType,
    contentDisposition: a.contentDisposition === 'inline' ? 'inline' : 'attachment',
    ...(a.cid ? { cid: a.cid } : {}),
  }));
  return {
    input: { ...result.message, to: to.mailboxes, cc: cc.mailboxes, bcc, attachments, envelope },
    idempotencyKey,
    fingerprint: {
      envelope,
      body: { ...body, ...shown },
      attachments: parsed.attachments.map((a) => [a.filename ?? '', a.contentType, a.checksum]),
    },
  };
}

/** The addresses a To or Cc header shows, each checked as REST checks one (`path.<index>`); at least `min`. */
function shownMailboxes(list: string[], path: string, min: number): { mailboxes: Mailbox[]; errors: FieldError[] } {
  const mailboxes: Mailbox[] = [];
  const errors: FieldError[] = [];
  if (list.length < min) errors.push({ path, message: `must name at least ${min} address` });
  list.forEach((value, i) => {
    const parsed = parseMailbox(value);
    if (parsed.ok) mailboxes.push(parsed.mailbox);
    else errors.push({ path: `${path}.${i}`, message: parsed.error });
  });
  return { mailboxes, errors };
}

/** Headers beyond the structural ones, as the REST `headers` field (the same rules judge them); repeats are refused. */
function customHeaders(parsed: ParsedMail): { headers: Record<string, string>; idempotencyKey: string | null } {
  const headers: Record<string, string> = {};
  let idempotencyKey: string | null = null;
  for (const { key, line } of parsed.headerLines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim();
    // Folding (CRLF + space) is how long headers are written, not a line break inside the value.
    const value = line
      .slice(colon + 1)
      .replace(/\r?\n(?=[ \t])/g, '')
      .trim();
    if (key === 'idempotency-key') idempotencyKey = value;
    if (colon <= 0 || STRUCTURAL.has(key)) continue;
    if (Object.keys(headers).some((n) => n.toLowerCase() === key)) {
      throw smtpError('validation_failed', `invalid message: header ${name} is given twice`);
    }
    headers[name] = value;
  }
  return { headers, idempotencyKey };
}

/** Every address of one or several address headers, groups flattened. */
function addresses(field: AddressObject | AddressObject[] | undefined): EmailAddress[] {
  const list = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return list.flatMap((f) => f.value.flatMap((a) => (a.group ? a.group : [a]))).filter((a) => a.address);
}

function format(a: EmailAddress): string {
  return formatMailbox({ name: a.name || null, address: a.address ?? '', domain: '' });
}
