import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** Where the Postfix commands are (Debian: /usr/sbin, often missing from a non-login PATH). */
export interface PostfixBinaries {
  postfix: string;
  postconf: string;
  postqueue: string;
}

export type PostfixAvailability = { ok: true; binaries: PostfixBinaries; version: string } | { ok: false; reason: string };

const SBIN_DIRS = ['/usr/sbin', '/usr/local/sbin', '/sbin'];
const INSTALL_HINT = 'apt-get install postfix (debconf: "No configuration")';
// maillog_file, the only log a container without syslog has, came with Postfix 3.4.
const MIN_VERSION = [3, 4];

function findExecutable(name: string, searchPath: string | undefined): string | null {
  for (const dir of [...(searchPath ?? '').split(':').filter(Boolean), ...SBIN_DIRS]) {
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

const atLeast = (version: string, min: number[]) => {
  const [major, minor] = version.split('.').map(Number);
  return major > min[0] || (major === min[0] && minor >= min[1]);
};

function userExists(name: string): boolean {
  try {
    execFileSync('id', ['-u', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether this machine can run a private Postfix instance: the binaries, root, the `postfix` user, version ≥ 3.4. */
export function postfixAvailable(env: NodeJS.ProcessEnv = process.env): PostfixAvailability {
  const postfix = findExecutable('postfix', env.PATH);
  if (!postfix) return { ok: false, reason: `no postfix binary on PATH or in ${SBIN_DIRS.join(', ')}: ${INSTALL_HINT}` };
  const dir = path.dirname(postfix);
  const postconf = findExecutable('postconf', dir);
  const postqueue = findExecutable('postqueue', dir);
  if (!postconf || !postqueue) return { ok: false, reason: `postconf or postqueue missing beside ${postfix}: ${INSTALL_HINT}` };
  if (process.getuid?.() !== 0) return { ok: false, reason: "Postfix's master must start as root; run the suite as root" };
  let version: string;
  try {
    version = execFileSync(postconf, ['-d', '-h', 'mail_version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch (err) {
    return { ok: false, reason: `${postconf} -d mail_version failed: ${(err as Error).message}` };
  }
  if (!atLeast(version, MIN_VERSION))
    return { ok: false, reason: `Postfix ${version} is older than ${MIN_VERSION.join('.')} (no maillog_file)` };
  const owner = execFileSync(postconf, ['-d', '-h', 'mail_owner'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  if (!userExists(owner)) return { ok: false, reason: `no ${owner} user (mail_owner): reinstall the postfix package` };
  return { ok: true, binaries: { postfix, postconf, postqueue }, version };
}

export type PostfixGate = { run: true; binaries: PostfixBinaries } | { run: false; skip: string } | { run: false; fail: string };

/** What a Postfix suite does here: run; skip, saying why; or, under CI=true, fail, since CI never skips it. */
export function postfixGate(availability: PostfixAvailability, env: NodeJS.ProcessEnv = process.env): PostfixGate {
  if (availability.ok) return { run: true, binaries: availability.binaries };
  if (env.CI === 'true') return { run: false, fail: `the Postfix suite cannot run on CI: ${availability.reason}` };
  return { run: false, skip: `Postfix suite skipped: ${availability.reason}` };
}
