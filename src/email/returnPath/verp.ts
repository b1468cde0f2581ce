import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { uuidFromBytes } from '../../http/ids';

/**
 * The tagged return path of one recipient of one email (VERP), and its DSN envelope id:
 *
 *     b+<email id>.<tag>.<check>@<EMAIL_RETURN_PATH_DOMAIN>       ENVID=<email id>.<tag>.<check>
 *
 * - `<email id>`: the email's UUID as 32 lower-case hex digits (no dashes).
 * - `<tag>`: 16 base32 characters (80 bits) of HMAC-SHA256(key, email id, recipient in lower case). It binds the
 *   return path to one recipient without naming them: the address itself never appears.
 * - `<check>`: 10 base32 characters (50 bits) of HMAC-SHA256(key, email id, tag), so a forged or mangled address is
 *   told apart without knowing whom it claims to be for.
 * - The key is derived with HKDF-SHA256 from the server secret (SECRET_HASH_KEY) for this purpose alone.
 *
 * The local part is 62 octets (RFC 5321 allows 64) of lower-case letters, digits, `+` and `.`, so an MTA that changes
 * its case changes nothing. The email's recipients each see their own return path (Return-Path), so each can forge
 * reports to it: the tag makes sure such a report can only ever be about that recipient.
 */
const PREFIX = 'b+';
const TAG_LENGTH = 16;
const CHECK_LENGTH = 10;
const HEX_ID = /^[0-9a-f]{32}$/i;
const TOKEN = /^([0-9a-f]{32})\.([a-z2-7]{16})\.([a-z2-7]{10})$/;

type Secret = Buffer | string;

/** A verified tagged value: the email it is about and the tag naming one of its recipients. */
export interface VerpTag {
  emailId: string;
  tag: string;
}

/** The envelope sender of `recipient`'s copy of the email `emailId`. */
export function verpAddress(secret: Secret, domain: string, emailId: string, recipient: string): string {
  return `${PREFIX}${verpEnvelopeId(secret, emailId, recipient)}@${domain.toLowerCase()}`;
}

/** The DSN envelope id (ENVID, RFC 3461) of the same copy: the tagged value without the prefix and the domain. */
export function verpEnvelopeId(secret: Secret, emailId: string, recipient: string): string {
  const id = compactId(emailId);
  const tag = tagOf(secret, id, recipient);
  return `${id}.${tag}.${checkOf(secret, id, tag)}`;
}

/**
 * Whether mail to `addressDomain` is for the return path served for `domain` (EMAIL_RETURN_PATH_DOMAIN): that domain
 * itself, or a sender domain's `bounces.<domain>` subdomain, whose MX names it so SPF aligns with From. Which email
 * and recipient a return path is about is only ever proven by its MAC.
 */
export function isReturnPathDomain(addressDomain: string, domain: string): boolean {
  const name = addressDomain.toLowerCase();
  return name === domain.toLowerCase() || (name.startsWith(RETURN_SUBDOMAIN) && name.length > RETURN_SUBDOMAIN.length);
}

/** The return-path subdomain of a sender domain (`bounces.<domain>`). */
export const RETURN_SUBDOMAIN = 'bounces.';

/** A return path served for `domain` that we made (its check verifies); null for any other address, the old `bounces+` ones included. */
export function readVerp(secret: Secret, address: string, domain: string): VerpTag | null {
  const trimmed = address.trim().toLowerCase();
  const at = trimmed.lastIndexOf('@');
  if (at < 0 || !isReturnPathDomain(trimmed.slice(at + 1), domain)) return null;
  const local = trimmed.slice(0, at);
  return local.startsWith(PREFIX) ? readVerpEnvelopeId(secret, local.slice(PREFIX.length)) : null;
}

/** An envelope id (Original-Envelope-Id of a DSN) that we made; null for any other. */
export function readVerpEnvelopeId(secret: Secret, envelopeId: string): VerpTag | null {
  const match = TOKEN.exec(envelopeId.trim().toLowerCase());
  if (!match) return null;
  const [, id, tag, check] = match;
  if (!sameText(checkOf(secret, id, tag), check)) return null;
  return { emailId: uuidFromBytes(Buffer.from(id, 'hex')), tag };
}

/** Whether `tag` is the one the email `emailId` was sent to `recipient` with. */
export function verpNames(secret: Secret, emailId: string, tag: string, recipient: string): boolean {
  if (!HEX_ID.test(emailId.replace(/-/g, ''))) return false;
  return sameText(tagOf(secret, compactId(emailId), recipient), tag.toLowerCase());
}

function tagOf(secret: Secret, id: string, recipient: string): string {
  return base32(mac(secret, `tag\0${id}\0${recipient.trim().toLowerCase()}`)).slice(0, TAG_LENGTH);
}

function checkOf(secret: Secret, id: string, tag: string): string {
  return base32(mac(secret, `check\0${id}\0${tag}`)).slice(0, CHECK_LENGTH);
}

function mac(secret: Secret, data: string): Buffer {
  return createHmac('sha256', verpKey(secret)).update(data).digest();
}

let derived: { secret: Secret; key: Buffer } | null = null;

/** Its own key (HKDF), so a tag can never pass as any other MAC made with the server secret. Derived once per secret. */
function verpKey(secret: Secret): Buffer {
  if (!derived || !Buffer.from(derived.secret).equals(Buffer.from(secret))) {
    derived = { secret, key: Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'workyard:email-verp', 32)) };
  }
  return derived.key;
}

/** The email id as 32 hex digits; anything but a UUID is a caller's mistake. */
function compactId(emailId: string): string {
  const id = emailId.replace(/-/g, '').toLowerCase();
  if (!HEX_ID.test(id)) throw new Error('a VERP tag needs the email id (a UUID)');
  return id;
}

/** Constant-time comparison of two ASCII strings (a length difference is not secret: both lengths are fixed). */
function sameText(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32, lower case, without padding. */
function base32(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return bits > 0 ? out + ALPHABET[(value << (5 - bits)) & 31] : out;
}
