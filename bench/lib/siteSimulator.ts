import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface BenchSiteSimulator {
  baseUrl: string;
  siteId: string;
  collectionId: string;
  items: number;
  /** Pasted into our API (site-token connect). */
  ourToken: string;
  /** Sent straight to the simulator by the baseline. */
  baselineToken: string;
  /** Stops it and answers how many requests it served. */
  stop(): Promise<number>;
}

/** The site platform simulator, seeded with one site, a collection of `items` items and a page, in a child process (see siteSimulatorMain.ts). */
export async function startBenchSiteSimulator(items: number): Promise<BenchSiteSimulator> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'siteSimulatorMain.ts')], {
    env: { ...process.env, BENCH_SITE_ITEMS: String(items) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const exited = once(child, 'exit');
  const [first] = (await Promise.race([
    once(lines, 'line'),
    exited.then(([code]) => {
      throw new Error(`the bench site simulator exited with ${code} before it was ready`);
    }),
  ])) as [string];
  const seeded = JSON.parse(first) as Omit<BenchSiteSimulator, 'stop'>;
  return {
    ...seeded,
    async stop() {
      const last = once(lines, 'line');
      child.kill('SIGTERM');
      const [line] = (await last) as [string];
      await exited;
      return (JSON.parse(line) as { requests: number }).requests;
    },
  };
}
