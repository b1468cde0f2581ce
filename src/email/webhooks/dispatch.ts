import type { AppDeps } from '../../deps';
import { startJob } from '../../temporal/jobs';
import {
  emailEventDeliveryContract,
  emailEventWorkflowId,
  type EmailEventDeliveryInput,
} from '../../../workflows/emailEventDelivery.contract';
import { stampDispatched } from './dispatchedStamps';

export type DispatchDeps = Pick<AppDeps, 'db' | 'temporal' | 'metrics' | 'logger'>;

/**
 * Starts (or attaches to) the delivery workflow `email-event:<eventId>` and stamps the event dispatched. A start
 * that fails leaves `dispatched_at` null: the re-dispatch sweep hands the event over later.
 */
export async function startEventDelivery(
  deps: DispatchDeps,
  accountId: string,
  eventId: string,
  requestId: string,
  retry?: EmailEventDeliveryInput['retry'],
): Promise<string> {
  const input: EmailEventDeliveryInput = { accountId, eventId, ...(retry ? { retry } : {}) };
  const { id } = await startJob(deps.temporal, deps.metrics, emailEventDeliveryContract, {
    accountId,
    args: [input],
    requestId,
    workflowId: emailEventWorkflowId(eventId),
  });
  await stampDispatched(deps.db, eventId);
  return id;
}

/** Best effort: every failure is logged (never the payload) and left to the sweep. */
export async function dispatchEvents(
  deps: DispatchDeps,
  accountId: string,
  eventIds: string[],
  retry?: EmailEventDeliveryInput['retry'],
): Promise<void> {
  const results = await Promise.allSettled(eventIds.map((id) => startEventDelivery(deps, accountId, id, 'email-event-emit', retry)));
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed.length > 0) {
    const err = failed[0].reason as Error;
    deps.logger.warn(
      { accountId, events: failed.length, error: err.name, reason: err.message },
      'email event workflows could not be started; the re-dispatch sweep will',
    );
  }
}
