import type { Knex } from './knex';

/** An entity of an outbox with rows handed over long ago and still unprocessed. */
export interface StaleHandOver {
  /** The entity's columns, as named in the query. */
  entity: Record<string, string>;
  /** The oldest such row's seq, and how many there are. */
  fromSeq: number;
  count: number;
}

/**
 * The entities of `unprocessed` (an outbox table's rows not processed yet, filtered by the caller) whose rows were
 * handed over (`dispatched_at`) before `olderThanMs` ago, grouped by `entityColumns`, at most `limit`, most stranded
 * first.
 */
export async function staleHandOvers(
  db: Knex,
  unprocessed: Knex.QueryBuilder,
  entityColumns: string[],
  olderThanMs: number,
  limit: number,
): Promise<StaleHandOver[]> {
  const rows = await unprocessed
    .where('dispatched_at', '<', db.raw('now() - make_interval(secs => ?)', [olderThanMs / 1000]))
    .groupBy(entityColumns)
    .orderByRaw('min(seq)')
    .limit(limit)
    .select([...entityColumns, db.raw('min(seq) as from_seq'), db.raw('count(*)::int as count')]);
  return rows.map((r: Record<string, unknown>) => ({
    entity: Object.fromEntries(entityColumns.map((c) => [c, String(r[c])])),
    fromSeq: Number(r.from_seq),
    count: Number(r.count),
  }));
}
