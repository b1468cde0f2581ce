import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey } from '../../crypto/aesGcm';
import { uuidFromBytes, uuidToBytes } from '../../http/ids';

/**
 * The token of a tracking pixel or a tracked link: which account, email and recipient it was made for, which link
 * (clicks), and a MAC, so it is verified without a database read and cannot be altered to name anything else.
 *
 *     base64url( 0x01 ‖ kind ‖ account id (16 bytes) ‖ email id (16 bytes) ‖ recipient tag (8 bytes)
 *                ‖ link index (2 bytes, clicks only) ‖ mac (16 bytes) )
 *
 * The recipient appears only as a tag — an HMAC of the email id and the address under a key of its own — so a link
 * that is forwarded or shared does not show whom it was sent to; the tag is matched against the email's recipients
 * when a hit is recorded. `mac` is HMAC-SHA256 over everything before it, cut to 128 bits, under a key derived
 * (HKDF-SHA256) from the server secret for this purpose alone.
 */
export type TrackingKind = 'open' | 'click';

export interface TrackingTarget {
  kind: TrackingKind;
  accountId: string;
  emailId: string;
  /** Lower case. */
  recipient: string;
  /** Clicks: the index of the link in the message's tracked links. */
  link?: number;
}

/** What a token names once its MAC is verified: the recipient still as its tag. */
export interface ReadToken {
  kind: TrackingKind;
  accountId: string;
  emailId: string;
  recipientTag: Buffer;
  link: number | null;
}

const VERSION = 1;
const KIND_BYTE: Record<TrackingKind, number> = { open: 0x6f, click: 0x63 };
const TAG_BYTES = 8;
const MAC_BYTES = 16;
const HEAD_BYTES = 1 + 1 + 16 + 16 + TAG_BYTES;
export const MAX_LINK_INDEX = 0xffff;
/** Longer than any token we make (62 bytes: 83 characters). */
const MAX_TOKEN_LENGTH = 128;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function trackingToken(secret: string, target: TrackingTarget): string {
  const parts = [
    Buffer.of(VERSION, KIND_BYTE[target.kind]),
    uuidToBytes(target.accountId),
    uuidToBytes(target.emailId),
    recipientTag(secret, target.emailId, target.recipient),
  ];
  if (target.kind === 'click') {
    const link = target.link ?? -1;
    if (!Number.isInteger(link) || link < 0 || link > MAX_LINK_INDEX) throw new Error('a click token needs a link index 0..65535');
    const index = Buffer.alloc(2);
    index.writeUInt16BE(link);
    parts.push(index);
  }
  const payload = Buffer.concat(parts);
  return Buffer.concat([payload, macOf(secret, payload)]).toString('base64url');
}

/** The target of a token we made; null for anything else (malformed, altered, or made under another secret). */
export function readTrackingToken(secret: string, token: string): ReadToken | null {
  if (token.length > MAX_TOKEN_LENGTH || !BASE64URL.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.toString('base64url') !== token || bytes[0] !== VERSION) return null;
  const kind = bytes[1] === KIND_BYTE.open ? 'open' : bytes[1] === KIND_BYTE.click ? 'click' : null;
  if (!kind || bytes.length !== HEAD_BYTES + (kind === 'click' ? 2 : 0) + MAC_BYTES) return null;
  const payload = bytes.subarray(0, bytes.length - MAC_BYTES);
  if (!timingSafeEqual(macOf(secret, payload), bytes.subarray(bytes.length - MAC_BYTES))) return null;
  return {
    kind,
    accountId: uuidFromBytes(payload.subarray(2, 18)),
    emailId: uuidFromBytes(payload.subarray(18, 34)),
    recipientTag: Buffer.from(payload.subarray(34, HEAD_BYTES)),
    link: kind === 'click' ? payload.readUInt16BE(HEAD_BYTES) : null,
  };
}

/** The recipient's tag in the tokens of one email: equal tags name the same address (any case). */
export function recipientTag(secret: string, emailId: string, recipient: string): Buffer {
  return createHmac('sha256', keys(secret).tag)
    .update(`${emailId.toLowerCase()}\n${recipient.toLowerCase()}`)
    .digest()
    .subarray(0, TAG_BYTES);
}

/** The recipient among `recipients` whose tag is `tag`, or undefined. */
export function recipientOfTag(secret: string, emailId: string, tag: Buffer, recipients: string[]): string | undefined {
  return recipients.find((r) => timingSafeEqual(recipientTag(secret, emailId, r), tag));
}

function macOf(secret: string, payload: Buffer): Buffer {
  return createHmac('sha256', keys(secret).mac).update(payload).digest().subarray(0, MAC_BYTES);
}

let derived: { secret: string; mac: Buffer; tag: Buffer } | null = null;

/** Keys of their own, so a token never passes as any other MAC made with the server secret. Derived once per secret. */
function keys(secret: string): { mac: Buffer; tag: Buffer } {
  if (derived?.secret !== secret)
    derived = { secret, mac: deriveKey(secret, 'email-tracking'), tag: deriveKey(secret, 'email-tracking-recipient') };
  return derived;
}
