import type { Logger } from '../logger';

interface Step {
  name: string;
  stop: () => Promise<unknown>;
  timeoutMs: number;
}

const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const DEFAULT_STEP_TIMEOUT_MS = 15_000;
const REPEAT_WINDOW_MS = 1_000;

/**
 * What a running process has started, and how to stop it. Each part registers its stop step right after it
 * starts; `shutdown` runs them newest first (API, worker, Temporal client, pool, dev server, Postgres), each bounded
 * by a timeout and logged, and carries on past a step that fails.
 */
export class Lifecycle {
  private readonly steps: Step[] = [];
  private stopping: Promise<boolean> | undefined;
  private stopRequested: ((reason: string) => void) | undefined;
  private requested = false;
  /** Resolves with the reason when a stop signal arrives or a part fails while running. */
  readonly stopRequest: Promise<string>;

  constructor(private readonly logger: Logger) {
    this.stopRequest = new Promise((resolve) => {
      this.stopRequested = resolve;
    });
  }

  get isStopping(): boolean {
    return this.stopping !== undefined || this.requested;
  }

  requestStop(reason: string): void {
    this.requested = true;
    this.stopRequested?.(reason);
  }

  onShutdown(name: string, stop: () => Promise<unknown>, timeoutMs = DEFAULT_STEP_TIMEOUT_MS): void {
    this.steps.push({ name, stop, timeoutMs });
  }

  /** Runs every stop step once; true when all of them finished cleanly. */
  shutdown(reason: string): Promise<boolean> {
    this.stopping ??= this.runSteps(reason);
    return this.stopping;
  }

  private async runSteps(reason: string): Promise<boolean> {
    this.logger.info({ reason }, 'shutting down');
    const started = Date.now();
    let clean = true;
    for (const step of this.steps.splice(0).reverse()) {
      const stepStarted = Date.now();
      this.logger.info({ step: step.name }, `stopping: ${step.name}`);
      try {
        await withTimeout(step.stop(), step.timeoutMs, `${step.name} did not stop within ${step.timeoutMs} ms`);
        this.logger.info({ step: step.name, ms: Date.now() - stepStarted }, `stopped: ${step.name}`);
      } catch (err) {
        clean = false;
        this.logger.warn({ step: step.name, ms: Date.now() - stepStarted, err: messageOf(err) }, `failed to stop: ${step.name}`);
      }
    }
    this.logger.info({ ms: Date.now() - started, clean }, 'shutdown complete');
    return clean;
  }
}

/**
 * Takes over SIGINT, SIGTERM and SIGHUP: the first asks the lifecycle to stop in order, a second one exits at once.
 * Listeners other libraries put there (Temporal's runtime shuts workers down) are removed, because they would stop
 * parts out of order.
 * A repeat within a second is the same stop request: the `tsx` launcher relays a signal again when its child is slow
 * to report that it got it.
 */
export function trapStopSignals(lifecycle: Lifecycle, logger: Logger): void {
  let receivedAt: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (receivedAt !== undefined) {
      if (Date.now() - receivedAt < REPEAT_WINDOW_MS) return;
      logger.warn({ signal }, `second ${signal}: exiting now, without finishing the shutdown`);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
    receivedAt = Date.now();
    logger.info({ signal }, `${signal} received: stopping (send it again to exit at once)`);
    lifecycle.requestStop(signal);
  };
  for (const signal of STOP_SIGNALS) {
    for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
    process.on(signal, onSignal);
  }
}

export async function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(message)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
