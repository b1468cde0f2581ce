import type { Knex } from '../../db/knex';

export type AuthKind = 'oauth' | 'site_token';
export type Purpose = 'account_default' | 'project_override';
export type OverrideMode = 'inherit' | 'override' | 'disabled';

export interface OAuthClientRow {
  id: string;
  account_id: string;
  name: string | null;
  client_id: string;
  client_secret_enc: string;
  created_at: Date;
  updated_at: Date;
}

export interface ConnectionRow {
  id: string;
  account_id: string;
  access_token_enc: string | null;
  auth_kind: AuthKind;
  purpose: Purpose;
  project_id: string | null;
  scope: string | null;
  authorized_user_email: string | null;
  workspace_id: string | null;
  rate_limit_per_minute: number | null;
  webhook_url_token_hash: string | null;
  oauth_app_id: string | null;
  last_introspected_at: Date | null;
  installed_at: Date | null;
  disconnected_at: Date | null;
  last_synced_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface SiteRow {
  id: string;
  account_id: string;
  connection_id: string | null;
  site_id: string;
  display_name: string;
  short_name: string | null;
  custom_domains: Array<{ id: string; url: string }>;
  locales: Record<string, unknown>;
  last_published_at: Date | null;
  last_publish_requested_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface BindingRow {
  id: string;
  account_id: string;
  project_id: string;
  override_mode: OverrideMode;
  connection_id: string | null;
  site_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const clients = (db: Knex, accountId: string) => db('site_platform_oauth_clients').where({ account_id: accountId });
const connections = (db: Knex, accountId: string) => db('site_platform_connections').where({ account_id: accountId });
const sites = (db: Knex, accountId: string) => db('site_platform_sites').where({ account_id: accountId });

// OAuth clients

export async function insertOAuthClient(
  db: Knex,
  accountId: string,
  fields: Pick<OAuthClientRow, 'name' | 'client_id' | 'client_secret_enc'>,
): Promise<OAuthClientRow | undefined> {
  const [row] = await db('site_platform_oauth_clients')
    .insert({ account_id: accountId, ...fields })
    .onConflict(['account_id', 'client_id'])
    .ignore()
    .returning('*');
  return row;
}

export async function listOAuthClients(db: Knex, accountId: string): Promise<OAuthClientRow[]> {
  return clients(db, accountId)
    .select('*')
    .orderBy([
      { column: 'created_at', order: 'asc' },
      { column: 'id', order: 'asc' },
    ]);
}

export async function findOAuthClient(db: Knex, accountId: string, id: string): Promise<OAuthClientRow | undefined> {
  return clients(db, accountId).where({ id }).first();
}

export async function rewrapClientSecret(db: Knex, accountId: string, id: string, from: string, to: string): Promise<void> {
  await clients(db, accountId).where({ id, client_secret_enc: from }).update({ client_secret_enc: to, updated_at: db.fn.now() });
}

// Connections

export async function listConnections(db: Knex, accountId: string): Promise<ConnectionRow[]> {
  return connections(db, accountId)
    .select('*')
    .orderBy([
      { column: 'created_at', order: 'asc' },
      { column: 'id', order: 'asc' },
    ]);
}

export async function findConnection(db: Knex, accountId: string, id: string): Promise<ConnectionRow | undefined> {
  return connections(db, accountId).where({ id }).first();
}

export async function findActiveDefault(db: Knex, accountId: string): Promise<ConnectionRow | undefined> {
  return connections(db, accountId).where({ purpose: 'account_default' }).whereNull('disconnected_at').first();
}

export async function findActiveOverride(db: Knex, accountId: string, projectId: string): Promise<ConnectionRow | undefined> {
  return connections(db, accountId)
    .where({ purpose: 'project_override', project_id: projectId })
    .whereNull('disconnected_at')
    .orderBy('created_at', 'desc')
    .first();
}

/**
 * Serialises connects of one account, so two first connects cannot both become the default. A transaction-scoped
 * advisory lock on the account's id, so this area takes no lock on another area's table (accounts).
 */
export async function lockAccount(trx: Knex, accountId: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`site_platform_connect:${accountId}`]);
}

export type ConnectionFields = Pick<
  ConnectionRow,
  | 'access_token_enc'
  | 'auth_kind'
  | 'purpose'
  | 'project_id'
  | 'scope'
  | 'authorized_user_email'
  | 'workspace_id'
  | 'rate_limit_per_minute'
  | 'oauth_app_id'
>;

export async function insertConnection(trx: Knex, accountId: string, fields: ConnectionFields): Promise<ConnectionRow> {
  const now = trx.fn.now();
  const [row] = await trx('site_platform_connections')
    .insert({ account_id: accountId, ...fields, installed_at: now, last_introspected_at: now, last_synced_at: now })
    .returning('*');
  return row;
}

/**
 * A token stored here is a new credential (a reconnect, or a connect refreshing the account default): its count of
 * platform rejections (the token-health sweep's disconnect condition) starts over, so the old token's rejections never
 * count against it. Re-sealing the same token under a new key is rewrapToken, which keeps the count.
 */
export async function updateConnection(
  db: Knex,
  accountId: string,
  id: string,
  fields: Partial<ConnectionRow>,
): Promise<ConnectionRow | undefined> {
  const freshCredential = typeof fields.access_token_enc === 'string' ? { token_rejections: 0, token_checked_at: null } : {};
  const [row] = await connections(db, accountId)
    .where({ id })
    .update({ ...fields, ...freshCredential, updated_at: db.fn.now() })
    .returning('*');
  return row;
}

/** Replaces the sealed token only if it still holds what was read, so a concurrent reconnect's token is never overwritten. */
export async function rewrapToken(db: Knex, accountId: string, id: string, from: string, to: string): Promise<void> {
  await connections(db, accountId).where({ id, access_token_enc: from }).update({ access_token_enc: to, updated_at: db.fn.now() });
}

// Sites

export type SiteFields = Pick<SiteRow, 'site_id' | 'display_name' | 'short_name' | 'custom_domains' | 'locales' | 'last_published_at'>;

/** One row per (account, site): a reconnect or another connection of the account sharing the site takes it over. */
export async function upsertSites(trx: Knex, accountId: string, connectionId: string, list: SiteFields[]): Promise<void> {
  for (const site of list) {
    const fields = {
      ...site,
      connection_id: connectionId,
      custom_domains: JSON.stringify(site.custom_domains),
      locales: JSON.stringify(site.locales),
    };
    await trx('site_platform_sites')
      .insert({ account_id: accountId, ...fields })
      .onConflict(['account_id', 'site_id'])
      .merge({ ...fields, last_published_at: newestPublish(trx), updated_at: trx.fn.now() });
  }
}

/** last_published_at never moves backwards: a publish stamped since the platform's record was read stays (greatest skips nulls). */
const newestPublish = (db: Knex) => db.raw('greatest(site_platform_sites.last_published_at, excluded.last_published_at)');

/** Stamps the account's site row with a successful publish, unless it already holds a later one. */
export async function stampLastPublished(db: Knex, accountId: string, siteId: string, at: Date): Promise<void> {
  await sites(db, accountId)
    .where({ site_id: siteId })
    .where((w) => w.whereNull('last_published_at').orWhere('last_published_at', '<', at))
    .update({ last_published_at: at, updated_at: db.fn.now() });
}

/** Records exactly which sites a connection's grant reaches now (a reconnect may drop some). */
export async function setConnectionSites(trx: Knex, accountId: string, connectionId: string, siteIds: string[]): Promise<void> {
  await trx('site_platform_connection_sites')
    .where({ account_id: accountId, connection_id: connectionId })
    .whereNotIn('site_id', siteIds)
    .delete();
  if (siteIds.length === 0) return;
  await trx('site_platform_connection_sites')
    .insert(siteIds.map((siteId) => ({ account_id: accountId, connection_id: connectionId, site_id: siteId })))
    .onConflict(['connection_id', 'site_id'])
    .ignore();
}

export async function connectionReaches(db: Knex, accountId: string, connectionId: string, siteId: string): Promise<boolean> {
  return !!(await db('site_platform_connection_sites')
    .where({ account_id: accountId, connection_id: connectionId, site_id: siteId })
    .first('site_id'));
}

/** The sites a connection reaches, as the account's site rows. */
export async function listSitesOfConnection(db: Knex, accountId: string, connectionId: string): Promise<SiteRow[]> {
  return sites(db, accountId)
    .whereIn(
      'site_id',
      db('site_platform_connection_sites').where({ account_id: accountId, connection_id: connectionId }).select('site_id'),
    )
    .select('*')
    .orderBy([
      { column: 'display_name', order: 'asc' },
      { column: 'site_id', order: 'asc' },
    ]);
}

/**
 * The account's live connections that reach a site: the one its site row names first, then the oldest. Several
 * connections may share one site; each keeps its own credentials.
 */
export async function liveConnectionsReaching(db: Knex, accountId: string, siteId: string): Promise<ConnectionRow[]> {
  return db('site_platform_connections as c')
    .join('site_platform_connection_sites as cs', 'cs.connection_id', 'c.id')
    .leftJoin('site_platform_sites as s', (j) => j.on('s.account_id', 'c.account_id').andOn('s.site_id', 'cs.site_id'))
    .where({ 'c.account_id': accountId, 'cs.account_id': accountId, 'cs.site_id': siteId })
    .whereNull('c.disconnected_at')
    .whereNotNull('c.access_token_enc')
    .orderByRaw('(s.connection_id = c.id) desc nulls last, c.created_at asc, c.id asc')
    .select('c.*');
}

export async function listSites(db: Knex, accountId: string): Promise<SiteRow[]> {
  return sites(db, accountId)
    .select('*')
    .orderBy([
      { column: 'display_name', order: 'asc' },
      { column: 'site_id', order: 'asc' },
    ]);
}

export async function findSite(db: Knex, accountId: string, siteId: string): Promise<SiteRow | undefined> {
  return sites(db, accountId).where({ site_id: siteId }).first();
}

// Project bindings

export async function findBinding(db: Knex, accountId: string, projectId: string): Promise<BindingRow | undefined> {
  return db('site_platform_project_bindings').where({ account_id: accountId, project_id: projectId }).first();
}

export type BindingFields = Pick<BindingRow, 'override_mode' | 'connection_id' | 'site_id'>;

/**
 * Writes the account's binding of its project (the caller checked the project is the account's). The arbiter is the
 * table's one unique key, project_id, so concurrent first writes end as one row instead of a unique violation.
 */
export async function saveBinding(db: Knex, accountId: string, projectId: string, fields: BindingFields): Promise<BindingRow> {
  const [row] = await db('site_platform_project_bindings')
    .insert({ account_id: accountId, project_id: projectId, ...fields })
    .onConflict('project_id')
    .merge({ ...fields, updated_at: db.fn.now() })
    .returning('*');
  return row;
}
