import type { AppDeps } from '../deps';
import { pingDatabase } from './readinessStore';

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

export async function checkReadiness(deps: AppDeps) {
  const [postgres, temporal] = await Promise.all([
    timed(() => pingDatabase(deps.db)),
    timed(() =>
      deps.temporal.client.connection.withDeadline(Date.now() + TIMEOUT_MS, () => deps.temporal.client.workflowService.getSystemInfo({})),
    ),
  ]);
  return { postgres, temporal };
}
