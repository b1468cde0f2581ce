import { summarize, type Summary } from './stats';

/** Raw samples of one load run; rounds of the same side are pooled before summarizing. */
export interface Samples {
  latenciesMs: number[];
  elapsedMs: number;
  errors: number;
}

export function pool(rounds: Samples[]): Summary {
  return summarize(
    rounds.flatMap((r) => r.latenciesMs),
    rounds.reduce((t, r) => t + r.elapsedMs, 0),
    rounds.reduce((t, r) => t + r.errors, 0),
  );
}

export interface LoadOptions {
  /** Requests in flight at once (closed loop: each worker sends the next when its last answered). */
  concurrency: number;
  /** Stop after this long… */
  durationMs?: number;
  /** …or after this many operations, whichever comes first. */
  maxOperations?: number;
  warmupOperations?: number;
}

/** Runs `operation` in a closed loop and reports throughput and latency percentiles; a throw counts as an error. */
export async function runLoad(operation: (i: number) => Promise<void>, options: LoadOptions): Promise<Summary> {
  return pool([await sampleLoad(operation, options)]);
}

export async function sampleLoad(operation: (i: number) => Promise<void>, options: LoadOptions): Promise<Samples> {
  for (let i = 0; i < (options.warmupOperations ?? 0); i++) await operation(-1 - i);
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const deadline = started + (options.durationMs ?? Number.POSITIVE_INFINITY);
  const limit = options.maxOperations ?? Number.POSITIVE_INFINITY;
  const worker = async () => {
    while (performance.now() < deadline && next < limit) {
      const i = next++;
      const t0 = performance.now();
      try {
        await operation(i);
        latencies.push(performance.now() - t0);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return { latenciesMs: latencies, elapsedMs: performance.now() - started, errors };
}
