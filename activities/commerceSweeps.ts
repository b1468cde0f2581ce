import { alertOverduePrivacyRequests, listUnfulfilledPrivacyRequests } from '../src/commerce/sweeps/compliance';
import { purgeExpiredDeliveries } from '../src/commerce/sweeps/deliveryPurge';
import { checkScopeDriftPage } from '../src/commerce/sweeps/scopeDrift';
import type { PageRequest } from '../src/commerce/sweeps/compliance';
import { findWebhookUrlDrift, raiseUrlReconcileFailure, reconcileWebhookUrl } from '../src/commerce/sweeps/urlReconcile';
import { checkWebhookHealthPage } from '../src/commerce/sweeps/webhookHealth';
import type { ShopRef } from '../workflows/commerceShopRef.contract';
import type { ActivityDeps } from './deps';

/** Side effects of the commerce reliability sweeps: each call handles one page (or one connection) and answers counts. */
export function createCommerceSweepActivities(deps: ActivityDeps) {
  return {
    checkCommerceWebhookHealth: (page: PageRequest) => checkWebhookHealthPage(deps.db, page),
    checkCommerceScopeDrift: (page: PageRequest) => checkScopeDriftPage(deps.db, page),
    findCommerceWebhookUrlDrift: (page: PageRequest) => findWebhookUrlDrift(deps, page),
    reconcileCommerceWebhookUrl: (ref: ShopRef) => reconcileWebhookUrl(deps, ref),
    /** The inbox item of a shop whose reconcile kept failing after every retry. */
    recordCommerceWebhookUrlFailure: (input: ShopRef & { code: string }) => raiseUrlReconcileFailure(deps, input, { code: input.code }),
    alertOverdueCommercePrivacyRequests: (input: { limit: number }) => alertOverduePrivacyRequests(deps.db, input.limit),
    listUnfulfilledCommercePrivacyRequests: (page: PageRequest) => listUnfulfilledPrivacyRequests(deps.db, page),
    purgeCommerceWebhookDeliveries: (input: { limit: number }) => purgeExpiredDeliveries(deps.db, input.limit),
  };
}
