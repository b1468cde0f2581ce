import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const TEMPORAL_CLI_VERSION = 'v1.5.1';

export type CliSource = 'TEMPORAL_CLI_PATH' | 'PATH' | 'cache' | 'go install' | 'sdk download';

async function executable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(
    () => true,
    () => false,
  );
}

export function cacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'workyard', `temporal-cli-${TEMPORAL_CLI_VERSION}`);
}

async function onPath(name: string): Promise<string | null> {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    if (await executable(candidate)) return candidate;
  }
  return null;
}

/**
 * Finds the Temporal CLI: TEMPORAL_CLI_PATH, `temporal` on PATH, the cached build, a fresh
 * `go install` into the cache when Go is present. Null means "let the SDK download it".
 */
export async function findTemporalCli(log: (msg: string) => void = () => undefined): Promise<{ path: string; source: CliSource } | null> {
  const configured = process.env.TEMPORAL_CLI_PATH;
  if (configured) {
    if (!(await executable(configured))) throw new Error(`TEMPORAL_CLI_PATH: ${configured} is not an executable file`);
    return { path: configured, source: 'TEMPORAL_CLI_PATH' };
  }
  const fromPath = await onPath('temporal');
  if (fromPath) return { path: fromPath, source: 'PATH' };
  const cached = path.join(cacheDir(), 'temporal');
  if (await executable(cached)) return { path: cached, source: 'cache' };
  const go = await onPath('go');
  if (!go) return null;
  log(`building the Temporal CLI ${TEMPORAL_CLI_VERSION} with go install (once; cached in ${cacheDir()})…`);
  await mkdir(cacheDir(), { recursive: true });
  await run(go, ['install', `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`], {
    env: { ...process.env, GOBIN: cacheDir() },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { path: cached, source: 'go install' };
}
