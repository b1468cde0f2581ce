import type { Knex } from '../../db/knex';
import { disconnectConnection } from './store';
import type { DeliveryContext, HandlerOutcome } from './types';

/** app/uninstalled: the connection is marked disconnected and its webhook subscriptions inactive (doc3). */
export async function handleUninstalled(db: Knex, ctx: DeliveryContext): Promise<HandlerOutcome> {
  const disconnected = await db.transaction((trx) => disconnectConnection(trx, ctx.accountId, ctx.connectionId, new Date(ctx.receivedAt)));
  return { outcome: 'processed', detail: { disconnected } };
}
