import { simpleParser } from 'mailparser';

/** A delivery status notification (RFC 3464) as the tests read it, independently of Workyard's own parser. */
export interface ParsedDsn {
  /** The top-level media type and its report-type parameter: `multipart/report`, `delivery-status`. */
  contentType: string;
  reportType: string | null;
  subject: string;
  /** Per-message fields (Reporting-MTA, Original-Envelope-Id…), names lower-cased. */
  message: Map<string, string>;
  /** One map of fields per recipient (Final-Recipient, Action, Status…). */
  recipients: Array<Map<string, string>>;
  /** Media types of the parts, in order: text/plain, message/delivery-status, message/rfc822 or text/rfc822-headers. */
  parts: string[];
}

/** RFC 3464 field groups: blank-line-separated blocks of `Name: value` lines, continuation lines folded. */
function fieldGroups(body: string): Array<Map<string, string>> {
  return body
    .replace(/\r\n/g, '\n')
    .replace(/\n[ \t]+/g, ' ')
    .split(/\n\s*\n/)
    .map((block) => {
      const fields = new Map<string, string>();
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        if (colon > 0) fields.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      return fields;
    })
    .filter((fields) => fields.size > 0);
}

interface Part {
  type: string;
  body: string;
}

/** The parts of a multipart body (Postfix writes its reports in 7bit/8bit: no transfer decoding needed). */
function partsOf(raw: string, boundary: string): Part[] {
  const sections = raw.split(`--${boundary}`).slice(1);
  return sections
    .filter((section) => !section.startsWith('--'))
    .map((section) => {
      const [head, ...rest] = section.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
      const type = /^content-type:\s*([^;\s]+)/im.exec(head)?.[1]?.toLowerCase() ?? 'text/plain';
      return { type, body: rest.join('\n\n') };
    });
}

export async function parseDsn(raw: Buffer): Promise<ParsedDsn> {
  const parsed = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true });
  const contentType = parsed.headers.get('content-type') as { value: string; params: Record<string, string> } | undefined;
  const boundary = contentType?.params.boundary;
  const parts = boundary ? partsOf(raw.toString('latin1'), boundary) : [];
  const status = parts.find((part) => part.type === 'message/delivery-status');
  const [message, ...recipients] = status ? fieldGroups(status.body) : [new Map<string, string>()];
  return {
    contentType: contentType?.value ?? '',
    reportType: contentType?.params['report-type'] ?? null,
    subject: parsed.subject ?? '',
    message,
    recipients,
    parts: parts.map((part) => part.type),
  };
}
