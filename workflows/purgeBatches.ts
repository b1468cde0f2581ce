import type { SweepProgress } from './sweep';
import type { SweepBudget } from './sweepBudget';

const DEFAULT_BATCH = 5_000;
const MAX_BATCH = 50_000;

/** Rows one purge statement deletes: the input's `batchSize` (default 5,000, at most 50,000). */
export const purgeBatchSize = (value: unknown): number =>
  typeof value === 'number' && value >= 1 ? Math.min(Math.floor(value), MAX_BATCH) : DEFAULT_BATCH;

/**
 * Deletes batch after batch (`purge` answers how many rows it deleted) until a batch comes back short — `finished` —
 * or the budget is spent first.
 */
export async function purgeInBatches(
  budget: SweepBudget,
  progress: SweepProgress,
  batch: number,
  purge: (limit: number) => Promise<number>,
): Promise<{ deleted: number; finished: boolean }> {
  let deleted = 0;
  for (;;) {
    if (budget.spent()) return { deleted, finished: false };
    const n = await purge(batch);
    deleted += n;
    progress.advance(n);
    if (n < batch) return { deleted, finished: true };
  }
}
