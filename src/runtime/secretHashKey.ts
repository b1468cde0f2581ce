import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Config } from '../config';
import { CliError } from './errors';
import { persistedKey } from './persistedKey';

export const SECRET_HASH_KEY_FILE = 'secret-hash-key';

export interface ResolvedKey {
  key: string;
  source: 'SECRET_HASH_KEY' | 'file' | 'generated';
  file?: string;
}

/**
 * The HMAC key of stored credential hashes. SECRET_HASH_KEY when set (production requires it); otherwise a key
 * generated once and kept in DATA_DIR/secret-hash-key (mode 0600), so tokens keep verifying across restarts and the
 * CLI's credentials verify in the running all-in-one stack.
 */
export async function resolveSecretHashKey(config: Config): Promise<ResolvedKey> {
  if (config.SECRET_HASH_KEY) return { key: config.SECRET_HASH_KEY, source: 'SECRET_HASH_KEY' };
  if (config.NODE_ENV === 'production') throw new CliError('SECRET_HASH_KEY: is required in production');
  const file = path.resolve(config.DATA_DIR, SECRET_HASH_KEY_FILE);
  const { key, generated } = await persistedKey({
    file,
    generate: () => randomBytes(32).toString('hex'),
    isValid: (text) => text.length >= 32,
    invalidMessage: `SECRET_HASH_KEY: ${file} holds fewer than 32 characters; delete it to generate a new key (existing tokens stop working) or set SECRET_HASH_KEY`,
  });
  return { key, source: generated ? 'generated' : 'file', file };
}

/** The config with the resolved key in it, so every part of the process hashes with the same key. */
export async function withSecretHashKey(config: Config): Promise<{ config: Config; key: ResolvedKey }> {
  const key = await resolveSecretHashKey(config);
  return { config: { ...config, SECRET_HASH_KEY: key.key }, key };
}
