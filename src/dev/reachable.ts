import { statSync, type Stats } from 'node:fs';
import path from 'node:path';

export interface UnixUser {
  uid: number;
  gid: number;
}

/**
 * The nearest-to-root directory on the way to `target` (itself included when it is a directory) that `user` may not
 * enter, or undefined when every existing one lets it through. Counts the owner, the primary group and others, not
 * supplementary groups, so it may call a path blocked that a group would open: the safe side. Directories below the
 * deepest existing one do not exist yet; whoever creates them decides their mode.
 */
export function firstBlockedDirectory(
  target: string,
  user: UnixUser,
  stat: (dir: string) => Stats | undefined = statOrUndefined,
): string | undefined {
  const resolved = path.resolve(target);
  for (const dir of directoriesDownTo(resolved)) {
    const info = stat(dir);
    if (!info) return undefined;
    if (!info.isDirectory()) return dir === resolved ? undefined : dir;
    if (!mayEnter(info, user)) return dir;
  }
  return undefined;
}

/** `/`, then each directory on the way down to `target`, `target` last. */
export function directoriesDownTo(target: string): string[] {
  const chain: string[] = [];
  for (let dir = path.resolve(target); ; dir = path.dirname(dir)) {
    chain.unshift(dir);
    if (dir === path.dirname(dir)) return chain;
  }
}

function mayEnter(info: Stats, user: UnixUser): boolean {
  if (user.uid === 0) return true;
  if (info.uid === user.uid) return (info.mode & 0o100) !== 0;
  if (info.gid === user.gid) return (info.mode & 0o010) !== 0;
  return (info.mode & 0o001) !== 0;
}

function statOrUndefined(dir: string): Stats | undefined {
  try {
    return statSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
