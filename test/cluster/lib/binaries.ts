import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const TEMPORAL_SERVER_VERSION = 'v1.29.1'; // keep in step with docker-compose.yml and .ci/run

export interface ServerBinaries {
  server: string;
  sqlTool: string;
}

export function serverBinaryDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TEMPORAL_SERVER_DIR) return env.TEMPORAL_SERVER_DIR;
  const cache = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cache, 'workyard', `temporal-server-${TEMPORAL_SERVER_VERSION}`);
}

async function firstExecutable(dir: string, names: string[]): Promise<string | undefined> {
  for (const name of names) {
    const file = path.join(dir, name);
    const ok = await access(file, constants.X_OK).then(
      () => true,
      () => false,
    );
    if (ok) return file;
  }
  return undefined;
}

/** The server and its SQL tool, as `go install` names them (`server`, `sql`) or as release archives do. */
export async function findServerBinaries(env: NodeJS.ProcessEnv = process.env): Promise<ServerBinaries> {
  const dir = serverBinaryDir(env);
  const server = await firstExecutable(dir, ['temporal-server', 'server']);
  const sqlTool = await firstExecutable(dir, ['temporal-sql-tool', 'sql']);
  if (!server || !sqlTool) {
    throw new Error(
      `no Temporal server ${TEMPORAL_SERVER_VERSION} binaries in ${dir} (need temporal-server or server, and temporal-sql-tool or sql). ` +
        `Build them with: GOBIN=${dir} go install go.temporal.io/server/cmd/server@${TEMPORAL_SERVER_VERSION} ` +
        `go.temporal.io/server/cmd/tools/sql@${TEMPORAL_SERVER_VERSION} (or set TEMPORAL_SERVER_DIR)`,
    );
  }
  return { server, sqlTool };
}
