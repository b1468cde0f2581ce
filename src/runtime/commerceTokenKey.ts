import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Config } from '../config';
import { persistedKey } from './persistedKey';

export const COMMERCE_TOKEN_KEY_FILE = 'commerce-token-key';

export interface ResolvedTokenKey {
  key: string;
  source: 'COMMERCE_TOKEN_ENCRYPTION_KEY' | 'file' | 'generated';
  file?: string;
}

const isKey = (text: string) => /^[A-Za-z0-9+/]+={0,2}$/.test(text) && Buffer.from(text, 'base64').length === 32;

/**
 * The key that seals platform tokens. COMMERCE_TOKEN_ENCRYPTION_KEY when set; otherwise — the sandbox only, so a
 * person can connect the simulated shop with no setup — a key generated once into DATA_DIR/commerce-token-key and
 * reused, so the tokens stored by one start still open after a restart.
 */
export async function resolveCommerceTokenKey(config: Config): Promise<ResolvedTokenKey> {
  if (config.COMMERCE_TOKEN_ENCRYPTION_KEY) return { key: config.COMMERCE_TOKEN_ENCRYPTION_KEY, source: 'COMMERCE_TOKEN_ENCRYPTION_KEY' };
  const file = path.resolve(config.DATA_DIR, COMMERCE_TOKEN_KEY_FILE);
  const { key, generated } = await persistedKey({
    file,
    generate: () => randomBytes(32).toString('base64'),
    isValid: isKey,
    invalidMessage: `COMMERCE_TOKEN_ENCRYPTION_KEY: ${file} does not hold a base64 32-byte key; delete it to generate a new one (stored shop tokens stop opening) or set COMMERCE_TOKEN_ENCRYPTION_KEY`,
  });
  return { key, source: generated ? 'generated' : 'file', file };
}
