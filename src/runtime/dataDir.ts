import { mkdir } from 'node:fs/promises';
import path from 'node:path';

/** Creates DATA_DIR (readable and traversable by others, so the `postgres` user can reach its data below it). */
export async function prepareDataDir(dataDir: string): Promise<string> {
  const resolved = path.resolve(dataDir);
  await mkdir(resolved, { recursive: true, mode: 0o755 });
  return resolved;
}
