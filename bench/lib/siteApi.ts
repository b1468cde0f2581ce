import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { BenchEnv } from './env';
import { BENCH_HASH_KEY } from './servers';

export interface ApiSample {
  statements: Record<string, number>;
  cpuMs: number;
}

export interface BenchSiteApi {
  urls: { ours: string; relay: string };
  /**
   * Since the last call (or the start): the SQL statements our API sent, with how often each was sent, and the CPU
   * time (user + system, ms) of the API process, which serves ours and the relay alike.
   */
  sample(): Promise<ApiSample>;
  stop(): void;
}

/** Our API and the bare relay in one child process (see siteApiMain.ts), pointed at the simulator. */
export async function startBenchSiteApi(env: BenchEnv, siteEnv: Record<string, string>): Promise<BenchSiteApi> {
  // BENCH_CPU_PROF_DIR=<dir> writes a CPU profile of the API process there (open it in Chrome DevTools).
  const profile = process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`] : [];
  const child = spawn(
    process.execPath,
    [...profile, '--max-semi-space-size=64', '--import', 'tsx', path.join(__dirname, 'siteApiMain.ts')],
    {
      env: {
        ...process.env,
        DATABASE_URL: env.databaseUrl,
        TEMPORAL_ADDRESS: env.temporal.address,
        SECRET_HASH_KEY: BENCH_HASH_KEY,
        ...siteEnv,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await Promise.race([
    once(lines, 'line'),
    exited.then(([code]) => {
      throw new Error(`the bench API exited with ${code} before it was ready`);
    }),
  ])) as [string];
  return {
    urls: JSON.parse(line) as BenchSiteApi['urls'],
    async sample() {
      const answer = new Promise<ApiSample>((resolve) => {
        const onLine = (text: string) => {
          if (!text.startsWith('{"statements"')) return; // a log line of the app
          lines.off('line', onLine);
          const { statements, cpuMicros } = JSON.parse(text) as { statements: Record<string, number>; cpuMicros: number };
          resolve({ statements, cpuMs: cpuMicros / 1000 });
        };
        lines.on('line', onLine);
      });
      child.kill('SIGUSR2');
      return answer;
    },
    stop: () => {
      child.kill('SIGTERM');
    },
  };
}
