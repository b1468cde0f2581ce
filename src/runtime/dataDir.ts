import { statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { CliError } from './errors';

/** Creates DATA_DIR (readable and traversable by others, so the `postgres` user can reach its data below it). */
export async function prepareDataDir(dataDir: string): Promise<string> {
  const resolved = path.resolve(dataDir);
  await mkdir(resolved, { recursive: true, mode: 0o755 });
  return resolved;
}

/**
 * Run as root, the embedded server runs as the `postgres` system user, which must be able to walk down to its data
 * directory. A home directory of mode 0700 (e.g. /root) above DATA_DIR stops it with an obscure initdb error: say so.
 */
export function assertReachableByPostgresUser(pgData: string): void {
  if (process.getuid?.() !== 0) return;
  for (let dir = path.dirname(path.resolve(pgData)); ; dir = path.dirname(dir)) {
    const { mode } = statSync(dir);
    if ((mode & 0o001) === 0) {
      throw new CliError(
        `DATA_DIR: the embedded PostgreSQL runs as the "postgres" user when started as root, and that user cannot enter ${dir} `
        + `(mode ${(mode & 0o777).toString(8)}). Set DATA_DIR to a directory outside it (e.g. DATA_DIR=/var/lib/workyard), `
        + `run as a regular user, or set DATABASE_URL to an existing PostgreSQL.`,
      );
    }
    if (dir === path.dirname(dir)) return;
  }
}
