import { Context } from '@temporalio/activity';
import { fulfilPrivacyRequest } from '../src/commerce/privacy/service';
import type { PrivacyFulfilment } from '../workflows/commercePrivacyRequest.contract';
import type { ActivityDeps } from './deps';

export interface PrivacyRequestRef {
  accountId: string;
  requestId: string;
}

/** Side effects of the per-request privacy workflow. */
export function createCommercePrivacyActivities(deps: ActivityDeps) {
  return {
    /** Fulfils one privacy request (idempotent); heartbeats while a shop's order log is scrubbed batch by batch. */
    async fulfilCommercePrivacyRequest(ref: PrivacyRequestRef): Promise<PrivacyFulfilment> {
      const result = await fulfilPrivacyRequest(deps.db, ref.accountId, ref.requestId, (scrubbed) =>
        Context.current().heartbeat({ scrubbed }),
      );
      deps.logger.info(
        { requestId: ref.requestId, status: result.status, topic: 'topic' in result ? result.topic : undefined },
        'commerce privacy request processed',
      );
      return result;
    },
  };
}
