import type { Logger } from '../logger';
import { Lifecycle, trapStopSignals } from './shutdown';

/**
 * Runs a long-lived process (all-in-one, API, worker): `start` brings its parts up, registering each one's stop
 * step; then it runs until a stop signal (exit 0) or until a part asks to stop because it failed (exit 1). A start
 * that fails stops what it had started and rethrows.
 */
export async function runService(logger: Logger, start: (lifecycle: Lifecycle) => Promise<void>): Promise<number> {
  const lifecycle = new Lifecycle(logger);
  trapStopSignals(lifecycle, logger);
  try {
    await start(lifecycle);
  } catch (err) {
    await lifecycle.shutdown('start-up failed');
    throw err;
  }
  const reason = await lifecycle.stopRequest;
  await lifecycle.shutdown(reason);
  return isSignal(reason) ? 0 : 1;
}

function isSignal(reason: string): boolean {
  return /^SIG[A-Z]+$/.test(reason);
}
