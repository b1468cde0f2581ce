import { lockAccount } from '../../auth/service';
import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import { commerceClientOf, type CommerceDeps } from './deps';
import {
  accountConnections,
  deactivateSubscriptions,
  demoteOtherDefaults,
  findConnection,
  listSubscriptions,
  updateConnection,
  upsertInstalledConnection,
  type ConnectionPurpose,
  type ConnectionRow,
} from './store';
import { shopAccessOf } from './tokens';

// Plain reads the routes answer with as stored.
export { listConnections, listSubscriptions } from './store';

export const connectionNotFound = () =>
  new ApiError(404, 'commerce_connection_not_found', 'no commerce connection with this id in your account');

/** The account's connection, or 404 (also for a malformed id or one of another account). */
export async function requireConnection(db: Knex, accountId: string, id: string): Promise<ConnectionRow> {
  const row = isUuid(id) ? await findConnection(db, accountId, id) : undefined;
  if (!row) throw connectionNotFound();
  return row;
}

export interface InstalledShop {
  shopDomain: string;
  shopId: string;
  shopName: string;
  adminTokenEnc: string;
  scope: string;
}

/**
 * Records an installed shop. The shop becomes the account default when it already was, or when the account has no
 * connected default; then any other (disconnected) default is demoted, so an account has one default at most.
 * Reconnecting clears `disconnected_at` and stamps `installed_at` again. A shop held by another account is 409.
 */
export async function saveInstalledShop(db: Knex, accountId: string, shop: InstalledShop): Promise<ConnectionRow> {
  return db.transaction(async (trx) => {
    // The account's lock serialises its connects, so two first connects cannot both become the default.
    await lockAccount(trx, accountId);
    const mine = await accountConnections(trx, accountId);
    const existing = mine.find((c) => c.shop_domain === shop.shopDomain);
    const otherActiveDefault = mine.some((c) => c.shop_domain !== shop.shopDomain && c.purpose === 'account_default' && !c.disconnected_at);
    const purpose: ConnectionPurpose =
      existing?.purpose === 'account_default' || !otherActiveDefault ? 'account_default' : 'project_override';
    const row = await upsertInstalledConnection(trx, accountId, {
      shop_domain: shop.shopDomain,
      shop_id: shop.shopId,
      shop_name: shop.shopName,
      admin_token_enc: shop.adminTokenEnc,
      scope: shop.scope,
      purpose,
    });
    if (!row)
      throw new ApiError(
        409,
        'shop_connected_to_another_account',
        `the shop ${shop.shopDomain} is connected to another account; disconnect it there first`,
      );
    if (purpose === 'account_default') await demoteOtherDefaults(trx, accountId, row.id);
    return row;
  });
}

/**
 * Disconnects a shop on our side: its webhooks are deleted on the platform (best effort), its subscriptions marked
 * inactive, its admin token dropped and `disconnected_at` set. Disconnecting again changes nothing.
 */
export async function disconnectConnection(deps: CommerceDeps, accountId: string, id: string): Promise<ConnectionRow> {
  const connection = await requireConnection(deps.db, accountId, id);
  if (connection.disconnected_at) return connection;
  await deleteShopWebhooks(deps, connection);
  return deps.db.transaction(async (trx) => {
    await deactivateSubscriptions(trx, accountId, id);
    const row = await updateConnection(trx, accountId, id, { disconnected_at: new Date(), admin_token_enc: null });
    return row!;
  });
}

async function deleteShopWebhooks(deps: CommerceDeps, connection: ConnectionRow): Promise<void> {
  const warn = (err: unknown, topic?: string) =>
    deps.logger.warn({ connectionId: connection.id, topic, code: (err as ApiError).code }, 'commerce webhook not deleted on disconnect');
  let access;
  try {
    access = await shopAccessOf(deps, connection);
  } catch (err) {
    return warn(err);
  }
  for (const s of await listSubscriptions(deps.db, connection.account_id, connection.id)) {
    if (!s.is_active || !s.platform_subscription_id) continue;
    try {
      await commerceClientOf(deps).deleteWebhook(access, s.platform_subscription_id);
    } catch (err) {
      warn(err, s.topic);
    }
  }
}

/** Reads the shop live with the stored token and refreshes its id and name: proves the connection works. */
export async function verifyConnection(deps: CommerceDeps, accountId: string, id: string): Promise<ConnectionRow> {
  const connection = await requireConnection(deps.db, accountId, id);
  const shop = await commerceClientOf(deps).getShop(await shopAccessOf(deps, connection));
  return (await updateConnection(deps.db, accountId, id, { shop_id: shop.id, shop_name: shop.name }))!;
}
