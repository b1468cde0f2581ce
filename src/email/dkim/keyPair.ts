import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';

const generate = promisify(generateKeyPair);

/** RSA-2048: what mailbox providers expect of a DKIM key (1024 is weak, 4096 overflows many DNS providers' fields). */
export const DKIM_KEY_BITS = 2048;

export interface DkimKeyPair {
  /** Base64 of the SubjectPublicKeyInfo DER: the `p=` of the DNS record. */
  publicKey: string;
  /** PKCS#8 PEM; stored only sealed (keyBox.ts). */
  privateKeyPem: string;
}

/** A new key pair, generated on libuv's thread pool (tens of milliseconds of CPU off the event loop). */
export async function newDkimKeyPair(): Promise<DkimKeyPair> {
  const { publicKey, privateKey } = await generate('rsa', {
    modulusLength: DKIM_KEY_BITS,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey: publicKey.toString('base64'), privateKeyPem: privateKey };
}
