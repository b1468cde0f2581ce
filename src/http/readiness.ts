import type { AppDeps } from '../deps';
import { pingDatabase } from './readinessStore';
import { checkWorkers, type WorkersCheck } from './workersCheck';

const TIMEOUT_MS = 2000;

async function timed(check: () => Promise<unknown>): Promise<{ ok: boolean; ms: number }> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), TIMEOUT_MS);
      }),
    ]);
    return { ok: true, ms: Date.now() - started };
  } catch {
    return { ok: false, ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

export interface Readiness {
  /** Postgres and Temporal answer; the workers check only warns. */
  ok: boolean;
  checks: { postgres: { ok: boolean; ms: number }; temporal: { ok: boolean; ms: number }; workers: WorkersCheck };
  /** What an operator should look at, none of which takes the API out of a load balancer. */
  warnings: string[];
}

export async function checkReadiness(deps: AppDeps): Promise<Readiness> {
  const [postgres, temporal, workers] = await Promise.all([
    timed(() => pingDatabase(deps.db)),
    timed(() =>
      deps.temporal.client.connection.withDeadline(Date.now() + TIMEOUT_MS, () => deps.temporal.client.workflowService.getSystemInfo({})),
    ),
    checkWorkers(deps),
  ]);
  return { ok: postgres.ok && temporal.ok, checks: { postgres, temporal, workers: workers.check }, warnings: workers.warnings };
}
