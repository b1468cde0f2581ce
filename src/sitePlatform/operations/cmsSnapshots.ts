import type { Knex } from '../../db/knex';
import type { OperationDef } from '../registry';
import type { SnapshotInfo, SnapshotKind } from './resultJson';
import { databaseNow, findFreshSnapshot, markStale, storeSnapshot, type SnapshotKey } from './store';

export const SNAPSHOT_TTL_MS: Record<SnapshotKind, number> = { schema: 10 * 60_000, items: 60_000 };

/** The reads the cache serves: the collection list and definitions (schema) and one collection's item lists (items). */
const CACHED_READS: Record<string, SnapshotKind> = {
  cms_collection_list: 'schema',
  cms_collection_get: 'schema',
  cms_item_list: 'items',
  cms_item_list_live: 'items',
};

interface Key extends SnapshotKey {
  kind: SnapshotKind;
}

function keyOf(accountId: string, op: OperationDef, params: Record<string, unknown>): Key | undefined {
  const kind = CACHED_READS[op.name];
  if (!kind || typeof params.site_id !== 'string') return undefined;
  const { site_id: _s, collection_id, ...rest } = params;
  const sorted = Object.keys(rest)
    .filter((k) => rest[k] !== undefined)
    .sort()
    .map((k) => [k, rest[k]]);
  return {
    account_id: accountId,
    site_id: params.site_id,
    kind,
    collection_id: typeof collection_id === 'string' ? collection_id : '',
    variant: JSON.stringify([op.name, sorted]),
  };
}

/**
 * Serves a cacheable read from a fresh snapshot, or fetches and stores it. Reads that are not cacheable run as they
 * are (`snapshot` undefined). Storing also drops the site's expired rows, so the table stays bounded per site.
 */
export async function snapshotRead(
  db: Knex,
  accountId: string,
  op: OperationDef,
  params: Record<string, unknown>,
  fetch: () => Promise<unknown>,
): Promise<{ result: unknown; snapshot?: SnapshotInfo }> {
  const key = keyOf(accountId, op, params);
  if (!key) return { result: await fetch() };
  const row = await findFreshSnapshot(db, key, SNAPSHOT_TTL_MS[key.kind]);
  if (row) return { result: row.body, snapshot: { kind: key.kind, cached: true, fetched_at: new Date(row.fetched_at).toISOString() } };

  const startedAt = await databaseNow(db);
  const result = await fetch();
  // A write that marked the site stale while this read was in flight wins: the answer is served but not kept.
  await storeSnapshot(db, key, result, startedAt, SNAPSHOT_TTL_MS.schema);
  return { result, snapshot: { kind: key.kind, cached: false, fetched_at: startedAt.toISOString() } };
}

/**
 * Marks every snapshot of a site, and of the collection written when one is named, stale for every account that
 * binds the site: the next read refetches. Called after a successful CMS write (and by inbound collection webhooks).
 * Stale rows are removed; the mark stops a read already in flight from storing what it fetched before the write.
 */
export async function markSnapshotsStale(db: Knex, siteId: string, collectionId?: string): Promise<void> {
  await markStale(db, siteId, collectionId);
}

export const invalidatesSnapshots = (op: OperationDef) => op.kind === 'write' && op.family === 'cms';
