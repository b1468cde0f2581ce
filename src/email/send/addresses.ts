/**
 * Mailbox parsing for the send API: `a@b.c` or `Name <a@b.c>` (the name may be quoted: `"Doe, Jane" <a@b.c>`).
 * Addresses are ASCII (an internationalised domain goes in its xn-- form); the local part is an RFC 5322 dot-atom of
 * at most 64 characters; the domain is a DNS name of two or more labels, lowercased, never an IP literal.
 */
export interface Mailbox {
  /** Display name, or null. */
  name: string | null;
  /** `local@domain`, the domain lowercased. */
  address: string;
  domain: string;
}

export type MailboxResult = { ok: true; mailbox: Mailbox } | { ok: false; error: string };

export const MAX_MAILBOX_LENGTH = 998;
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LOCAL_PART = new RegExp(`^${ATOM}(?:\\.${ATOM})*$`);
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
// Control characters (CR and LF among them) would let a value inject headers.
const CONTROL = /[\u0000-\u001f\u007f]/;

export function parseMailbox(input: string): MailboxResult {
  if (input.length > MAX_MAILBOX_LENGTH) return fail(`must be at most ${MAX_MAILBOX_LENGTH} characters`);
  if (CONTROL.test(input)) return fail('must not contain control characters or line breaks');
  const trimmed = input.trim();
  const angle = /^(.*?)\s*<([^<>]*)>$/.exec(trimmed);
  if (!angle) {
    if (/[<>"\s]/.test(trimmed)) return fail('must be an email address or "Name <address>"');
    return withAddress(null, trimmed);
  }
  const name = displayName(angle[1]);
  if (name === undefined) return fail('has a malformed display name (quote it: "Name, Inc." <a@b.c>)');
  return withAddress(name, angle[2].trim());
}

/** `a@b.c` or `Name <a@b.c>`, quoting the name when it holds characters special in a header. */
export function formatMailbox(mailbox: Mailbox): string {
  if (!mailbox.name) return mailbox.address;
  const name = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~ -]+$/.test(mailbox.name) ? mailbox.name : `"${mailbox.name.replace(/(["\\])/g, '\\$1')}"`;
  return `${name} <${mailbox.address}>`;
}

function withAddress(name: string | null, addrSpec: string): MailboxResult {
  const at = addrSpec.lastIndexOf('@');
  if (at <= 0) return fail('must be an email address such as name@example.com');
  const local = addrSpec.slice(0, at);
  const domain = addrSpec.slice(at + 1).toLowerCase();
  if (local.length > 64 || !LOCAL_PART.test(local)) return fail('has an invalid local part (before the @)');
  const domainError = checkDomain(domain);
  if (domainError) return fail(domainError);
  return { ok: true, mailbox: { name, address: `${local}@${domain}`, domain } };
}

function checkDomain(domain: string): string | null {
  if (domain.length === 0 || domain.length > 253) return 'must have a domain of 1 to 253 characters';
  const labels = domain.split('.');
  if (labels.length < 2) return 'must have a domain with a dot, e.g. example.com';
  if (!labels.every((l) => LABEL.test(l))) return 'has an invalid domain (letters, digits and hyphens in dot-separated labels)';
  if (/^[0-9]+$/.test(labels[labels.length - 1])) return 'must have a domain name, not an IP address';
  return null;
}

/** The display name without quotes; undefined when malformed; null when empty. */
function displayName(raw: string): string | null | undefined {
  const name = raw.trim();
  if (name === '') return null;
  if (name.startsWith('"')) {
    const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(name);
    if (!quoted) return undefined;
    const unescaped = quoted[1].replace(/\\(.)/g, '$1').trim();
    return unescaped === '' ? null : unescaped;
  }
  return /["<>]/.test(name) ? undefined : name;
}

function fail(error: string): MailboxResult {
  return { ok: false, error };
}
