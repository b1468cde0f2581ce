import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { BenchEnv } from './env';

export const BENCH_HASH_KEY = 'bench-secret-hash-key-0123456789abcdef';

export interface BenchServers {
  urls: { ours: string; baseline: string };
  /** The servers' process. */
  pid: number;
  stop(): void;
}

/** Starts our API and the named baseline in one child process (see bench/servers/benchServers.ts). */
export async function startServers(
  env: BenchEnv,
  baseline: string,
  accountId: string,
  extraEnv: Record<string, string> = {},
): Promise<BenchServers> {
  // BENCH_CPU_PROF_DIR=<dir> writes a CPU profile of the servers there (open it in Chrome DevTools).
  const profile = process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`] : [];
  // The product's node flags (package.json start/cli, Dockerfile) apply to the servers, as in production.
  const child = spawn(
    process.execPath,
    [...profile, '--max-semi-space-size=64', '--import', 'tsx', path.join(__dirname, '../servers/benchServers.ts')],
    {
      env: {
        ...process.env,
        DATABASE_URL: env.databaseUrl,
        TEMPORAL_ADDRESS: env.temporal.address,
        BENCH_BASELINE: baseline,
        BENCH_ACCOUNT_ID: accountId,
        SECRET_HASH_KEY: BENCH_HASH_KEY,
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return { urls: JSON.parse(line) as BenchServers['urls'], pid: child.pid!, stop: () => child.kill('SIGTERM') };
}
