import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config';
import { CliError } from './errors';

export const SECRET_HASH_KEY_FILE = 'secret-hash-key';

export interface ResolvedKey { key: string; source: 'SECRET_HASH_KEY' | 'file' | 'generated'; file?: string }

/**
 * The HMAC key of stored credential hashes. SECRET_HASH_KEY when set (production requires it); otherwise a key
 * generated once and kept in DATA_DIR/secret-hash-key (mode 0600), so tokens keep verifying across restarts and the
 * CLI's credentials verify in the running all-in-one stack.
 */
export async function resolveSecretHashKey(config: Config): Promise<ResolvedKey> {
  if (config.SECRET_HASH_KEY) return { key: config.SECRET_HASH_KEY, source: 'SECRET_HASH_KEY' };
  if (config.NODE_ENV === 'production') throw new CliError('SECRET_HASH_KEY: is required in production');
  const file = path.resolve(config.DATA_DIR, SECRET_HASH_KEY_FILE);
  const existing = await readKey(file);
  if (existing) return { key: existing, source: 'file', file };
  await mkdir(path.dirname(file), { recursive: true });
  // Written whole to a temporary file, then linked into place: a reader never sees a half-written key, and when
  // another process (a CLI command beside the stack) got there first, its key wins.
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  try {
    await link(temporary, file);
    return { key: (await readKey(file))!, source: 'generated', file };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return { key: (await readKey(file))!, source: 'file', file };
    throw err;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

async function readKey(file: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const key = text.trim();
  if (key.length < 32) throw new CliError(`SECRET_HASH_KEY: ${file} holds fewer than 32 characters; delete it to generate a new key (existing tokens stop working) or set SECRET_HASH_KEY`);
  return key;
}

/** The config with the resolved key in it, so every part of the process hashes with the same key. */
export async function withSecretHashKey(config: Config): Promise<{ config: Config; key: ResolvedKey }> {
  const key = await resolveSecretHashKey(config);
  return { config: { ...config, SECRET_HASH_KEY: key.key }, key };
}
