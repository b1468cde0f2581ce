import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CliError } from './errors';

export interface PersistedKeySpec {
  file: string;
  generate: () => string;
  isValid: (key: string) => boolean;
  /** Says what is wrong with an invalid file and how to recover, naming the variable that replaces it. */
  invalidMessage: string;
}

/**
 * A key generated once into a file (mode 0600) and read back on every later start. Written whole to a temporary
 * file, then linked into place: a reader never sees half a key, and when another process (a CLI command beside the
 * stack) got there first, its key wins.
 */
export async function persistedKey(spec: PersistedKeySpec): Promise<{ key: string; generated: boolean }> {
  const existing = await readKey(spec);
  if (existing) return { key: existing, generated: false };
  await mkdir(path.dirname(spec.file), { recursive: true });
  const temporary = `${spec.file}.${process.pid}.tmp`;
  await writeFile(temporary, `${spec.generate()}\n`, { mode: 0o600 });
  try {
    await link(temporary, spec.file);
    return { key: (await readKey(spec))!, generated: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return { key: (await readKey(spec))!, generated: false };
    throw err;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

async function readKey(spec: PersistedKeySpec): Promise<string | null> {
  let text: string;
  try {
    text = (await readFile(spec.file, 'utf8')).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  if (!spec.isValid(text)) throw new CliError(spec.invalidMessage);
  return text;
}
