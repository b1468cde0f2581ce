import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { UnixUser } from './reachable';

const run = promisify(execFile);
export const POSTGRES_USER = 'postgres';

/**
 * Whom the embedded server runs as: this process's user, except as root, which PostgreSQL refuses. Root runs it as
 * the `postgres` system user, created (without a home or a login shell) when missing. Undefined: no switch.
 */
export async function postgresRunAs(): Promise<UnixUser | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const existing = await lookupUser(POSTGRES_USER);
  if (existing) return existing;
  try {
    await run('useradd', [
      '--system',
      '--user-group',
      '--no-create-home',
      '--home-dir',
      '/nonexistent',
      '--shell',
      '/usr/sbin/nologin',
      POSTGRES_USER,
    ]);
  } catch (err) {
    // A parallel start may have created it meanwhile.
    const created = await lookupUser(POSTGRES_USER);
    if (created) return created;
    throw new Error(
      `PostgreSQL refuses to run as root, and creating the "${POSTGRES_USER}" system user to run it as failed ` +
        `(${(err as Error).message.trim()}). Create that user, or run as a regular user, or set DATABASE_URL.`,
      { cause: err },
    );
  }
  const created = await lookupUser(POSTGRES_USER);
  if (!created) throw new Error(`useradd did not create the "${POSTGRES_USER}" user`);
  return created;
}

async function lookupUser(name: string): Promise<UnixUser | undefined> {
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
    return { uid: Number.parseInt(uid.stdout, 10), gid: Number.parseInt(gid.stdout, 10) };
  } catch {
    return undefined;
  }
}
