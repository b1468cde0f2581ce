import type { AppDeps } from '../deps';
import { startJob } from '../temporal/jobs';
import {
  alertEventDeliveryContract,
  alertEventWorkflowId,
  type AlertEventDeliveryInput,
} from '../../workflows/alertEventDelivery.contract';
import { markEventDispatched } from './store';

export type DispatchDeps = Pick<AppDeps, 'db' | 'temporal' | 'metrics' | 'logger'>;

/**
 * Starts (or attaches to) the delivery workflow `alert-event:<eventId>` and stamps the event dispatched. A start
 * that fails leaves `dispatched_at` null: the relay hands the event over later.
 */
export async function startAlertDelivery(
  deps: DispatchDeps,
  accountId: string,
  eventId: string,
  requestId: string,
  retry?: AlertEventDeliveryInput['retry'],
): Promise<string> {
  const input: AlertEventDeliveryInput = { accountId, eventId, ...(retry ? { retry } : {}) };
  const { id } = await startJob(deps.temporal, deps.metrics, alertEventDeliveryContract, {
    accountId,
    args: [input],
    requestId,
    workflowId: alertEventWorkflowId(eventId),
  });
  await markEventDispatched(deps.db, eventId);
  return id;
}
