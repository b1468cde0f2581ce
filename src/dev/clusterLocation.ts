import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EmbeddedPostgresError } from './embeddedPostgresError';
import { POSTGRES_USER } from './postgresUser';
import { firstBlockedDirectory, type UnixUser } from './reachable';
import { ensureRootOwnedDir, ROOT_STATE_DIR } from './rootOwnedDir';

export const CLUSTERS_DIR = path.join(ROOT_STATE_DIR, 'clusters');
/** In DATA_DIR when its cluster lives elsewhere: the cluster's directory, so that the next start finds it again. */
export const CLUSTER_RECORD = 'postgres.location';

export interface ClusterLocation {
  /** The cluster's data directory. */
  dir: string;
  /** Set when the cluster is not DATA_DIR/postgres: the file in DATA_DIR that names it. */
  recordFile?: string;
}

/**
 * Where the embedded cluster of DATA_DIR lives: DATA_DIR/postgres, unless the server's user (`postgres`, when root
 * starts it) cannot enter a directory above it (DATA_DIR under /root or a `mktemp -d`). Then it lives in a
 * root-owned directory of its own under CLUSTERS_DIR, named in DATA_DIR/postgres.location, so that the same DATA_DIR
 * finds its data again and a new DATA_DIR (even at the same path) starts empty. Nothing of the user's is loosened.
 */
export async function clusterLocationFor(dataDir: string, runAs: UnixUser | undefined): Promise<ClusterLocation> {
  const recordFile = path.join(dataDir, CLUSTER_RECORD);
  if (existsSync(recordFile)) return { dir: await recordedCluster(recordFile), recordFile };
  const inDataDir = path.join(dataDir, 'postgres');
  const blocked = runAs && firstBlockedDirectory(inDataDir, runAs);
  if (!blocked) return { dir: inDataDir };
  if (existsSync(path.join(inDataDir, 'PG_VERSION'))) {
    throw new EmbeddedPostgresError(
      `the cluster in ${inDataDir} cannot be started: the embedded PostgreSQL runs as the "${POSTGRES_USER}" user when started as root, ` +
        `and that user cannot enter ${blocked}. Let others enter it (chmod o+x ${blocked}), move DATA_DIR below a directory others ` +
        'may enter, or run as a regular user.',
    );
  }
  try {
    const home = await ensureRootOwnedDir(path.join(CLUSTERS_DIR, randomBytes(12).toString('hex')));
    await writeFile(path.join(home, 'data-dir'), `${dataDir}\n`, { mode: 0o644 });
    const dir = path.join(home, 'postgres');
    await writeFile(recordFile, `${dir}\n`, { mode: 0o644, flag: 'wx' });
    return { dir, recordFile };
  } catch (err) {
    throw new EmbeddedPostgresError(
      `the embedded PostgreSQL runs as the "${POSTGRES_USER}" user when started as root, and that user cannot enter ${blocked}, above ` +
        `DATA_DIR; keeping the cluster in ${CLUSTERS_DIR} instead failed (${(err as Error).message}). Move DATA_DIR below a directory ` +
        'others may enter, run as a regular user, or set DATABASE_URL.',
    );
  }
}

async function recordedCluster(recordFile: string): Promise<string> {
  const dir = readFileSync(recordFile, 'utf8').trim();
  const home = path.dirname(dir);
  if (path.basename(dir) !== 'postgres' || path.dirname(home) !== CLUSTERS_DIR || !/^[0-9a-f]{24}$/.test(path.basename(home))) {
    throw new EmbeddedPostgresError(
      `${recordFile} should name a cluster directory ${CLUSTERS_DIR}/<id>/postgres, not "${dir}"; fix or remove it`,
    );
  }
  await ensureRootOwnedDir(home);
  return dir;
}
