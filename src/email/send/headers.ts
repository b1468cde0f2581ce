/**
 * Custom headers a send may add. Names are RFC 7230 tokens; no CR, LF or other control character in a name or a
 * value (header injection); names the service sets itself, and trace, signature or MIME-structure headers, are
 * refused whatever their case.
 */
export const MAX_CUSTOM_HEADERS = 50;
export const MAX_HEADER_VALUE = 998;

export const RESERVED_HEADERS = [
  'from',
  'to',
  'cc',
  'bcc',
  'reply-to',
  'sender',
  'subject',
  'date',
  'message-id',
  'return-path',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'content-disposition',
  'content-id',
  'received',
  'dkim-signature',
] as const;

const RESERVED = new Set<string>(RESERVED_HEADERS);
const TOKEN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/; // TAB is fine inside a value

/** The problem with one header, or null. */
export function headerProblem(name: string, value: string): string | null {
  if (!TOKEN.test(name)) return "header names are 1 to 100 token characters (letters, digits and !#$%&'*+.^_`|~-)";
  if (RESERVED.has(name.toLowerCase())) return `${name} is set by the service; use the matching field instead`;
  if (CONTROL.test(value)) return 'header values must not contain line breaks or control characters';
  if (value.length > MAX_HEADER_VALUE) return `header values are at most ${MAX_HEADER_VALUE} characters`;
  return null;
}

/**
 * The headers one-click unsubscribe sets (RFC 2369, RFC 8058). A send may give them itself while its `unsubscribe`
 * option is off; with the option on they are the service's, so a message never carries two.
 */
export const UNSUBSCRIBE_HEADERS = ['list-unsubscribe', 'list-unsubscribe-post'] as const;

/** The problem with a custom header on a message whose `unsubscribe` option is on, or null. */
export function unsubscribeHeaderProblem(name: string): string | null {
  return (UNSUBSCRIBE_HEADERS as readonly string[]).includes(name.toLowerCase())
    ? `${name} is set by the unsubscribe option; give one or the other`
    : null;
}
