import { lstatSync, realpathSync, type Stats } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { directoriesDownTo } from './reachable';

/**
 * Where a root process keeps what the unprivileged `postgres` user must reach (the server's binaries, clusters whose
 * DATA_DIR it cannot enter): root-owned, readable and enterable by everyone, writable only by root.
 */
export const ROOT_STATE_DIR = '/var/lib/workyard';

/**
 * Creates `dir` (mode 0755) as needed and checks that it and every directory above it is a real directory (no
 * symlink), owned by root and writable by nobody else (a sticky directory such as /tmp may be world-writable above it:
 * nobody else can then rename or remove what root put in it). Throws naming the first directory that is not.
 */
export async function ensureRootOwnedDir(dir: string): Promise<string> {
  const wanted = path.resolve(dir);
  let existing = wanted;
  while (!exists(existing)) existing = path.dirname(existing);
  const real = path.join(realpathSync(existing), path.relative(existing, wanted));
  for (const ancestor of directoriesDownTo(real)) {
    if (!exists(ancestor)) {
      await mkdir(ancestor, { mode: 0o755 }).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
      // The umask may have taken bits off.
      const info = lstatSync(ancestor);
      if (info.isDirectory() && info.uid === 0) await chmod(ancestor, 0o755);
    }
    assertRootOwned(ancestor, lstatSync(ancestor), ancestor === real);
  }
  return real;
}

function assertRootOwned(dir: string, info: Stats, isTarget: boolean): void {
  const worldWritable = (info.mode & 0o022) !== 0;
  const sticky = (info.mode & 0o1000) !== 0;
  let problem: string | undefined;
  if (info.isSymbolicLink() || !info.isDirectory()) problem = 'is not a directory';
  else if (info.uid !== 0) problem = `is owned by uid ${info.uid}, not root`;
  else if (worldWritable && (isTarget || !sticky)) problem = `is writable by others (mode ${(info.mode & 0o7777).toString(8)})`;
  else if (isTarget && (info.mode & 0o005) !== 0o005) problem = `is not readable by others (mode ${(info.mode & 0o7777).toString(8)})`;
  if (problem) throw new Error(`${dir} ${problem}; it must be a root-owned directory of mode 0755 to hold what the postgres user runs`);
}

function exists(dir: string): boolean {
  try {
    lstatSync(dir);
    return true;
  } catch {
    return false;
  }
}
