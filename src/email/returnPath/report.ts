import { allFields, decodedBody, fieldGroups, mediaType, parseEntity, partsOf, headerParam, type Entity } from './mime';

/** One recipient's lines of a delivery status notification (RFC 3464). */
export interface DsnRecipient {
  /** Final-Recipient (else Original-Recipient), lower case. */
  recipient: string;
  /** Original-Recipient: the address as the sender gave it, when a relay rewrote it (an alias, a forward). */
  originalRecipient: string | null;
  action: string;
  status: string | null;
  diagnostic: string | null;
  remoteMta: string | null;
}

export type Report =
  | { kind: 'dsn'; envelopeId: string | null; reportingMta: string | null; originalMessageId: string | null; recipients: DsnRecipient[] }
  | {
      kind: 'arf';
      feedbackType: string;
      originalMessageId: string | null;
      /** The original's envelope sender: Original-Mail-From, else the Return-Path header of the original message. */
      originalMailFrom: string | null;
      recipients: string[];
      userAgent: string | null;
    };

/** A delivery status notification or a feedback report (RFC 5965); null for any other message. */
export function parseReport(raw: Buffer): Report | null {
  const top = parseEntity(raw.toString('latin1'));
  if (mediaType(top) !== 'multipart/report') return null;
  const reportType = headerParam(top.headers.get('content-type'), 'report-type')?.toLowerCase();
  const parts = partsOf(top);
  const original = parts.find((p) => ['message/rfc822', 'text/rfc822-headers', 'message/rfc822-headers'].includes(mediaType(p)));
  const originalHeaders = original ? originalHeadersOf(original) : new Map<string, string>();
  const originalMessageId = originalHeaders.get('message-id') ?? null;

  if (reportType === 'delivery-status') {
    const status = parts.find((p) => ['message/delivery-status', 'message/global-delivery-status'].includes(mediaType(p)));
    if (!status) return null;
    const [perMessage, ...perRecipient] = fieldGroups(decodedBody(status));
    if (!perMessage) return null;
    const recipients = perRecipient
      .map((f) => ({
        recipient: addressOf(f.get('final-recipient') ?? f.get('original-recipient') ?? ''),
        originalRecipient: f.get('original-recipient') ? addressOf(f.get('original-recipient')!) : null,
        action: (f.get('action') ?? '').toLowerCase(),
        status: f.get('status')?.split(/\s/)[0] ?? null,
        diagnostic: f.get('diagnostic-code') ?? null,
        remoteMta: f.get('remote-mta') ?? null,
      }))
      .filter((r) => r.recipient && r.action);
    return {
      kind: 'dsn',
      envelopeId: perMessage.get('original-envelope-id') ?? null,
      reportingMta: perMessage.get('reporting-mta') ?? null,
      originalMessageId,
      recipients,
    };
  }

  if (reportType === 'feedback-report') {
    const feedback = parts.find((p) => mediaType(p) === 'message/feedback-report');
    if (!feedback) return null;
    const body = decodedBody(feedback);
    const [fields] = fieldGroups(body);
    if (!fields?.get('feedback-type')) return null;
    // Original-Rcpt-To names who complained; without it, the original message's To.
    const named = allFields(body, 'original-rcpt-to').map(addressOf);
    const recipients = named.length > 0 ? named : (originalHeaders.get('to') ?? '').split(',').map(addressOf);
    return {
      kind: 'arf',
      feedbackType: fields.get('feedback-type')!.toLowerCase(),
      originalMessageId,
      originalMailFrom: addressOf(fields.get('original-mail-from') ?? originalHeaders.get('return-path') ?? '') || null,
      recipients: recipients.filter(Boolean),
      userAgent: fields.get('user-agent') ?? null,
    };
  }
  return null;
}

function originalHeadersOf(part: Entity): Map<string, string> {
  // text/rfc822-headers is headers only; message/rfc822 is a whole message whose headers come first.
  return parseEntity(decodedBody(part)).headers;
}

/** `rfc822; Jane <jane@x.test>` or `<jane@x.test>` → `jane@x.test` (lower case). */
export function addressOf(value: string): string {
  const typed = value.includes(';') ? value.slice(value.indexOf(';') + 1) : value;
  const angle = /<([^<>]*)>/.exec(typed);
  return (angle ? angle[1] : typed).trim().toLowerCase();
}
