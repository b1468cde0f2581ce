import { dkimSign } from 'mailauth/lib/dkim/sign';
import type { DkimSigningKey } from './signingKey';

/**
 * The header fields a signature covers when present (RFC 6376 §5.4.1: what a recipient sees and acts on). From is
 * always there; mailauth signs every instance present of each listed field. It cannot over-sign (list a field once
 * more than it occurs), so a From added in transit is not caught by the signature itself; DMARC receivers refuse
 * messages with more than one From (RFC 7489 §6.6.1).
 */
export const SIGNED_HEADERS = [
  'From',
  'To',
  'Cc',
  'Subject',
  'Date',
  'Message-ID',
  'MIME-Version',
  'Content-Type',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
] as const;

export class DkimSignError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DkimSignError';
  }
}

/**
 * The message with one DKIM-Signature header per key prepended (rsa-sha256, relaxed/relaxed, `t=` now). `raw` is
 * the whole RFC 5322 message with CRLF line ends, as nodemailer composes it. No keys: the message unchanged.
 */
export async function signMessage(raw: Buffer, keys: DkimSigningKey[]): Promise<Buffer> {
  if (keys.length === 0) return raw;
  const result = await dkimSign(raw, {
    canonicalization: 'relaxed/relaxed',
    algorithm: 'rsa-sha256',
    signTime: new Date(),
    // mailauth reads a colon-separated list here (an array would fall back to its own longer default).
    headerList: SIGNED_HEADERS.join(':') as unknown as string[],
    signatureData: keys.map((key) => ({
      signingDomain: key.domain,
      selector: key.selector,
      privateKey: key.privateKeyPem,
      algorithm: 'rsa-sha256',
      canonicalization: 'relaxed/relaxed',
    })),
  } as Parameters<typeof dkimSign>[1]);
  if (result.errors.length > 0) {
    const [first] = result.errors as unknown as Array<{ selector?: string; signingDomain?: string; err?: Error }>;
    // The key itself stays out of the message; the selector and domain say which one failed.
    throw new DkimSignError(
      `DKIM signing failed for ${first.selector}._domainkey.${first.signingDomain}: ${first.err?.message ?? 'unknown error'}`,
    );
  }
  return Buffer.concat([Buffer.from(result.signatures, 'utf8'), raw]);
}
