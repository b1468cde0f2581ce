import type { Knex } from '../../db/knex';

/** The only SQL of the operation runner: audit rows, CMS snapshots, write locks and publish claims. */

// Audit

export async function insertAudit(db: Knex, accountId: string, action: string, actor: string, target: string | null): Promise<void> {
  await db('site_platform_audit').insert({ account_id: accountId, action, actor, target });
}

// CMS snapshots

export interface SnapshotKey {
  account_id: string;
  site_id: string;
  kind: string;
  collection_id: string;
  variant: string;
}

/** The snapshot under `key` fetched less than `ttlMs` ago. */
export async function findFreshSnapshot(
  db: Knex,
  key: SnapshotKey,
  ttlMs: number,
): Promise<{ body: unknown; fetched_at: Date } | undefined> {
  return db('site_platform_cms_snapshots')
    .where(key)
    .andWhere('fetched_at', '>', db.raw(`now() - make_interval(secs => ?)`, [ttlMs / 1000]))
    .first('body', 'fetched_at');
}

/** The database's clock, which snapshot ages and stale marks are compared on. */
export async function databaseNow(db: Knex): Promise<Date> {
  return (await db.raw('select now() as at')).rows[0].at as Date;
}

/**
 * Stores what a read fetched at `startedAt`, dropping the site's rows older than `pruneAfterMs`, unless a write marked
 * the site or the collection stale since `startedAt`: then the answer is served but not kept.
 */
export async function storeSnapshot(db: Knex, key: SnapshotKey, body: unknown, startedAt: Date, pruneAfterMs: number): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('site_platform_cms_snapshots')
      .where({ account_id: key.account_id, site_id: key.site_id })
      .andWhere('fetched_at', '<', trx.raw(`now() - make_interval(secs => ?)`, [pruneAfterMs / 1000]))
      .delete();
    await trx.raw(
      `
      insert into site_platform_cms_snapshots (account_id, site_id, kind, collection_id, variant, body, fetched_at)
      select ?, ?, ?, ?, ?, ?::jsonb, ?
      where not exists (select 1 from site_platform_cms_stale_marks where scope in (?, ?) and marked_at >= ?)
      on conflict (account_id, site_id, kind, collection_id, variant) do update set body = excluded.body, fetched_at = excluded.fetched_at`,
      [
        key.account_id,
        key.site_id,
        key.kind,
        key.collection_id,
        key.variant,
        JSON.stringify(body ?? null),
        startedAt,
        `site:${key.site_id}`,
        `collection:${key.collection_id}`,
        startedAt,
      ],
    );
  });
}

/** Marks the site (and the collection, when named) stale now and removes their snapshots, for every account. */
export async function markStale(db: Knex, siteId: string, collectionId?: string): Promise<void> {
  const scopes = [`site:${siteId}`, ...(collectionId ? [`collection:${collectionId}`] : [])];
  await db.transaction(async (trx) => {
    await trx('site_platform_cms_stale_marks')
      .insert(scopes.map((scope) => ({ scope, marked_at: trx.fn.now() })))
      .onConflict('scope')
      .merge(['marked_at']);
    await trx('site_platform_cms_snapshots')
      .where((q) => {
        q.where({ site_id: siteId });
        if (collectionId) q.orWhere({ collection_id: collectionId });
      })
      .delete();
  });
}

// Write locks

/** Takes the (account, target) lock for `holder` unless a live holder has it; answers its expiry, or null when not taken. */
export async function takeWriteLock(db: Knex, accountId: string, target: string, holder: string, windowMs: number): Promise<Date | null> {
  const taken = await db.raw(
    `insert into site_platform_write_locks (account_id, target, holder, expires_at)
     values (?, ?, ?, now() + make_interval(secs => ?))
     on conflict (account_id, target) do update set holder = excluded.holder, expires_at = excluded.expires_at
       where site_platform_write_locks.expires_at <= now()
     returning expires_at`,
    [accountId, target, holder, windowMs / 1000],
  );
  return taken.rows.length === 0 ? null : new Date(taken.rows[0].expires_at);
}

/** Releases the lock if `holder` still has it; answers whether it did. */
export async function releaseWriteLock(db: Knex, accountId: string, target: string, holder: string): Promise<boolean> {
  return (await db('site_platform_write_locks').where({ account_id: accountId, target, holder }).delete()) > 0;
}

// Publish claims. Stamps travel as text: a JS Date drops the microseconds the releases compare on.

export async function publishClaimStamp(db: Knex, siteId: string): Promise<string | null> {
  const row = await db('site_platform_publish_claims').where({ site_id: siteId }).first(db.raw('claimed_at::text as stamp'));
  return row?.stamp ?? null;
}

/** Claims the site's publish minute unless claimed less than `cooldownSeconds` ago; answers the new stamp, or null. */
export async function claimPublishMinute(db: Knex, siteId: string, cooldownSeconds: number): Promise<string | null> {
  const claimed = await db.raw(
    `insert into site_platform_publish_claims (site_id, claimed_at) values (?, now())
     on conflict (site_id) do update set claimed_at = excluded.claimed_at
       where site_platform_publish_claims.claimed_at <= now() - make_interval(secs => ?)
     returning claimed_at::text as stamp`,
    [siteId, cooldownSeconds],
  );
  return claimed.rows[0]?.stamp ?? null;
}

/** Whole seconds (at least 1) until the site's publish minute frees up; undefined when no claim exists. */
export async function secondsUntilPublishFree(db: Knex, siteId: string, cooldownSeconds: number): Promise<number | undefined> {
  const row = await db.raw(
    `select greatest(1, ceil(extract(epoch from (claimed_at + make_interval(secs => ?) - now()))))::int as wait
     from site_platform_publish_claims where site_id = ?`,
    [cooldownSeconds, siteId],
  );
  return row.rows[0]?.wait === undefined ? undefined : Number(row.rows[0].wait);
}

/** Puts the claim back to `previous` (removes it when null), only if it still holds `stamp`. */
export async function restorePublishClaim(db: Knex, siteId: string, stamp: string, previous: string | null): Promise<void> {
  if (previous === null) {
    await db.raw(`delete from site_platform_publish_claims where site_id = ? and claimed_at::text = ?`, [siteId, stamp]);
  } else {
    await db.raw(`update site_platform_publish_claims set claimed_at = ?::timestamptz where site_id = ? and claimed_at::text = ?`, [
      previous,
      siteId,
      stamp,
    ]);
  }
}

export async function lastPublishRequestedStamp(db: Knex, accountId: string, siteId: string): Promise<string | null> {
  const row = await db('site_platform_sites')
    .where({ account_id: accountId, site_id: siteId })
    .first(db.raw('last_publish_requested_at::text as stamp'));
  return row?.stamp ?? null;
}

export async function setLastPublishRequested(db: Knex, accountId: string, siteId: string, stamp: string): Promise<void> {
  await db.raw(
    `update site_platform_sites set last_publish_requested_at = ?::timestamptz, updated_at = now() where account_id = ? and site_id = ?`,
    [stamp, accountId, siteId],
  );
}

/** Puts the account's site stamp back to `previous`, only if it still holds `stamp`. */
export async function restoreLastPublishRequested(
  db: Knex,
  accountId: string,
  siteId: string,
  stamp: string,
  previous: string | null,
): Promise<void> {
  await db.raw(
    `update site_platform_sites set last_publish_requested_at = ?::timestamptz
     where account_id = ? and site_id = ? and last_publish_requested_at::text = ?`,
    [previous, accountId, siteId, stamp],
  );
}
