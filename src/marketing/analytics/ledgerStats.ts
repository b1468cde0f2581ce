import type { Knex } from '../../db/knex';
import { leadsByPath, type LedgerRange } from './ledgerStore';
import { normalizePath } from './paths';

export type { LedgerRange };

export interface LedgerPathStats {
  /** Ledger rows on the page: spam, duplicate and deleted rows left out. */
  leads: number;
  /** Distinct CRM contacts those rows resolve to. */
  contacts: number;
}

/**
 * Lead stats of a project's pages over a time range, keyed by normalised path. A path with no counted row is absent,
 * not zero; a path that does not normalise is absent too. One statement however many paths. The caller checks that
 * the project is the account's; the account filter alone already keeps other accounts' rows out.
 */
export async function ledgerStatsByPath(
  db: Knex,
  accountId: string,
  projectId: string,
  paths: readonly string[],
  range: LedgerRange = {},
): Promise<Map<string, LedgerPathStats>> {
  const normalized = [...new Set(paths.map(normalizePath).filter((p): p is string => p !== null))];
  const stats = new Map<string, LedgerPathStats>();
  if (normalized.length === 0) return stats;
  for (const row of await leadsByPath(db, accountId, projectId, normalized, range)) {
    stats.set(row.page_path, { leads: row.leads, contacts: row.contacts });
  }
  return stats;
}

/** Lead stats of one page: undefined when the page has no counted row (or the path does not normalise). */
export async function ledgerStats(
  db: Knex,
  accountId: string,
  projectId: string,
  path: string,
  range: LedgerRange = {},
): Promise<LedgerPathStats | undefined> {
  const key = normalizePath(path);
  return key === null ? undefined : (await ledgerStatsByPath(db, accountId, projectId, [key], range)).get(key);
}
