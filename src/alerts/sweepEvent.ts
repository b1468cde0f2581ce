/** Statuses a sweep's per-connection report uses for work it did not finish (the order backfill's results). */
const UNFINISHED = new Set(['partial', 'skipped', 'already_running', 'running']);

export interface UnfinishedEntry {
  connection_id: string | null;
  shop_domain: string | null;
  status: string;
}

/**
 * The accounts a partial sweep names as left unfinished: entries of its `results` with an account and an unfinished
 * status. Sweeps that report only what they did check (health checks, purges) name nobody: their partial run is an
 * operators' matter (the sweep's result and the `workyard_schedule_runs_total` metric), not an account's.
 */
export function unfinishedAccounts(result: unknown): Map<string, UnfinishedEntry[]> {
  const byAccount = new Map<string, UnfinishedEntry[]>();
  const results = (result as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) return byAccount;
  for (const entry of results as Array<Record<string, unknown>>) {
    if (!entry || typeof entry.account_id !== 'string' || typeof entry.status !== 'string' || !UNFINISHED.has(entry.status)) continue;
    const list = byAccount.get(entry.account_id) ?? [];
    list.push({
      connection_id: typeof entry.connection_id === 'string' ? entry.connection_id : null,
      shop_domain: typeof entry.shop_domain === 'string' ? entry.shop_domain : null,
      status: entry.status,
    });
    byAccount.set(entry.account_id, list);
  }
  return byAccount;
}
