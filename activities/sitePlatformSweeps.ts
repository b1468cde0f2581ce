import { purgeExpiredEvents, type RetentionClass } from '../src/sitePlatform/sweeps/eventRetention';
import { checkConnectionToken, tokenHealthPage, type PageRequest } from '../src/sitePlatform/sweeps/tokenHealth';
import { findWebhookUrlDrift, raiseUrlReconcileFailure, reconcileWebhookUrl } from '../src/sitePlatform/sweeps/urlReconcile';
import { checkConnectionWebhooks, webhookHealthPage } from '../src/sitePlatform/sweeps/webhookHealth';
import type { ConnectionRef } from '../workflows/sitePlatformSweeps.contract';
import type { DriftRef } from '../workflows/sitePlatformWebhookUrlReconcile.contract';
import type { ActivityDeps } from './deps';
import { siteDepsOf } from './siteDeps';

/**
 * Side effects of the site platform sweeps: each call handles one page of connections, one connection, or one batch
 * of rows, and answers what it found. The URL token is keyed by SECRET_HASH_KEY (resolved in the worker's config).
 */
export function createSitePlatformSweepActivities(deps: ActivityDeps) {
  const site = siteDepsOf(deps);
  return {
    listSitePlatformTokenHealthPage: (page: PageRequest) => tokenHealthPage(site, page),
    checkSitePlatformToken: (input: ConnectionRef & { mayDisconnect: boolean }) =>
      checkConnectionToken(site, input, { mayDisconnect: input.mayDisconnect }),
    listSitePlatformWebhookHealthPage: (page: PageRequest) => webhookHealthPage(site, page),
    checkSitePlatformWebhooks: (ref: ConnectionRef) => checkConnectionWebhooks(site, ref),
    findSitePlatformWebhookUrlDrift: (page: PageRequest) => findWebhookUrlDrift(site, page),
    reconcileSitePlatformWebhookUrl: (ref: DriftRef) => reconcileWebhookUrl(site, ref),
    /** The inbox item of a connection whose reconcile kept failing after every retry. */
    recordSitePlatformWebhookUrlFailure: (input: DriftRef & { code: string }) =>
      raiseUrlReconcileFailure(site, input, { code: input.code }),
    purgeSitePlatformInboundEvents: (input: { kind: RetentionClass; limit: number }) => purgeExpiredEvents(deps.db, input),
  };
}
