import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { BenchEnv } from './env';
import { BENCH_HASH_KEY } from './servers';

export interface BenchSiteApi {
  urls: { ours: string; relay: string };
  /** The SQL statements our API sent since the last call (or the start), with how often each was sent. */
  statements(): Promise<Record<string, number>>;
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
    async statements() {
      const answer = new Promise<Record<string, number>>((resolve) => {
        const onLine = (text: string) => {
          if (!text.startsWith('{"statements"')) return; // a log line of the app
          lines.off('line', onLine);
          resolve((JSON.parse(text) as { statements: Record<string, number> }).statements);
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
