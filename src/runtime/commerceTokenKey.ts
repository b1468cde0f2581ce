import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config';
import { CliError } from './errors';

export const COMMERCE_TOKEN_KEY_FILE = 'commerce-token-key';

export interface ResolvedTokenKey { key: string; source: 'COMMERCE_TOKEN_ENCRYPTION_KEY' | 'file' | 'generated'; file?: string }

const isKey = (text: string) => /^[A-Za-z0-9+/]+={0,2}$/.test(text) && Buffer.from(text, 'base64').length === 32;

/**
 * The key that seals platform tokens. COMMERCE_TOKEN_ENCRYPTION_KEY when set; otherwise — the sandbox only, so a
 * person can connect the simulated shop with no setup — a key generated once into DATA_DIR/commerce-token-key
 * (mode 0600) and reused, so the tokens stored by one start still open after a restart. Written like the
 * credential hash key: to a temporary file, then linked into place, so a concurrent start never sees half a key.
 */
export async function resolveCommerceTokenKey(config: Config): Promise<ResolvedTokenKey> {
  if (config.COMMERCE_TOKEN_ENCRYPTION_KEY) return { key: config.COMMERCE_TOKEN_ENCRYPTION_KEY, source: 'COMMERCE_TOKEN_ENCRYPTION_KEY' };
  const file = path.resolve(config.DATA_DIR, COMMERCE_TOKEN_KEY_FILE);
  const existing = await readKey(file);
  if (existing) return { key: existing, source: 'file', file };
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
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
    text = (await readFile(file, 'utf8')).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  if (!isKey(text)) throw new CliError(`COMMERCE_TOKEN_ENCRYPTION_KEY: ${file} does not hold a base64 32-byte key; delete it to generate a new one (stored shop tokens stop opening) or set COMMERCE_TOKEN_ENCRYPTION_KEY`);
  return text;
}
