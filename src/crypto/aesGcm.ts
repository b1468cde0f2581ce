import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** A 32-byte key for one purpose, derived from a master secret (HKDF-SHA256), so one secret never keys two uses. */
export function deriveKey(masterSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', masterSecret, Buffer.alloc(0), `workyard:${purpose}`, 32));
}

/** AES-256-GCM envelope `v1:iv:ct:tag` (base64 parts). */
export function seal(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), ct.toString('base64'), cipher.getAuthTag().toString('base64')].join(':');
}

/** Opens a `v1:iv:ct:tag` envelope; throws when it was sealed with another key or altered. */
export function open(key: Buffer, envelope: string): string {
  const [version, iv, ct, tag] = envelope.split(':');
  if (version !== 'v1' || !iv || ct === undefined || !tag) throw new Error('not a v1 envelope');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64')), decipher.final()]).toString('utf8');
}
