import { Context } from '@temporalio/activity';
import { drainSiteEvents, type SiteDrainPass } from '../src/sitePlatform/webhooks/drain';
import { ISOLATE_FROM_ATTEMPT } from '../workflows/outboxDrain.contract';
import type { ActivityDeps } from './deps';
import { whileHeartbeating } from './heartbeat';

export interface SiteDrainInput {
  accountId: string;
  siteId: string;
  /** Events per batch. */
  batch: number;
  budgetMs: number;
}

/** Side effects of the site fan-out workflows (workflows/sitePlatformEvents.ts). */
export function createSitePlatformEventActivities(deps: ActivityDeps) {
  return {
    /** One pass over the site's handed-over events not yet fanned out (src/sitePlatform/webhooks/drain.ts). */
    async drainSitePlatformEvents(input: SiteDrainInput): Promise<SiteDrainPass> {
      const isolate = Context.current().info.attempt >= ISOLATE_FROM_ATTEMPT;
      return whileHeartbeating(() =>
        drainSiteEvents(
          deps,
          { accountId: input.accountId, siteId: input.siteId },
          { batch: input.batch, budgetMs: input.budgetMs, isolate },
        ),
      );
    },
  };
}
