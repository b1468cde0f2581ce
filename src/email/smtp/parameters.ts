import type { SMTPServerAddressArgs } from 'smtp-server';
import { smtpError } from './replies';

/**
 * The MAIL parameters of the extensions the server advertises: SIZE (RFC 1870), BODY (8BITMIME, RFC 6152) and AUTH
 * (RFC 4954 5, an AUTH client may name the submitter). RCPT takes none: DSN is not offered (the service reports
 * outcomes through its webhooks, not to the submitting client).
 */
const KNOWN: Record<'mail' | 'rcpt', readonly string[]> = { mail: ['SIZE', 'BODY', 'AUTH'], rcpt: [] };

/** Why a parameter a client may reasonably try is refused, beyond "not advertised". */
const WHY: Record<string, string> = {
  REQUIRETLS:
    'REQUIRETLS (RFC 8689) is not offered: the service cannot promise TLS on every hop to the recipient, so it does not take the message under that condition',
  SMTPUTF8: 'SMTPUTF8 (RFC 6531) is not offered: addresses must be ASCII (an internationalised domain in its xn-- form)',
};

/**
 * 555 5.5.4 for a MAIL or RCPT parameter that is not one of an advertised extension (RFC 5321 4.1.1.11, RFC 1869):
 * a client that asks for something the server would silently not do is told so before it sends the message.
 */
export function assertKnownParameters(args: SMTPServerAddressArgs | false, command: 'mail' | 'rcpt'): void {
  const unknown = Object.keys(args || {}).find((name) => !KNOWN[command].includes(name.toUpperCase()));
  if (!unknown) return;
  const name = unknown.toUpperCase();
  const supported = KNOWN[command].length > 0 ? `supported: ${KNOWN[command].join(', ')}` : 'RCPT takes none';
  throw smtpError(
    'unsupported_parameter',
    WHY[name] ?? `${name} is not a ${command.toUpperCase()} parameter of this server (${supported})`,
  );
}
