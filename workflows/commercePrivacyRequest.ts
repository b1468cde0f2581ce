import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { isCancellation, log, ParentClosePolicy, proxyActivities, startChild } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { AccountIdKey, ConnectionIdKey, JobKindKey } from './searchAttributes';
import {
  commercePrivacyRequestContract,
  commercePrivacyWorkflowId,
  type PrivacyFulfilment,
  type PrivacyRequestInput,
} from './commercePrivacyRequest.contract';
import { trackProgress } from './progress';

const { fulfilCommercePrivacyRequest } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '1 minute',
  // A failed run is no loss: the hourly compliance sweep starts the request's workflow again.
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 10 },
});

/**
 * One logged privacy request (`commerce-privacy:<requestId>`): its fulfilment — data package, customer redaction or
 * shop redaction — in one idempotent activity that sets `fulfilled_at`. Started by the shop's workflow right after
 * the delivery is logged, and again by the compliance sweep for any request still unfulfilled.
 */
export async function commercePrivacyRequest(input: PrivacyRequestInput): Promise<PrivacyFulfilment> {
  const progress = trackProgress('fulfilling', 1);
  const result = await fulfilCommercePrivacyRequest({ accountId: input.accountId, requestId: input.requestId });
  progress.advance();
  progress.current.phase = result.status;
  return result;
}

/**
 * Starts a request's workflow as an abandoned child (it outlives the caller: the shop's entity workflow, or a
 * sweep). The id does the deduplication: while a run of it is open, a start answers `existing` (a child start always
 * fails on an open run), so two sweeps racing never run one request twice at once. A closed run — completed, failed,
 * terminated or timed out — never blocks a new one (reuse policy ALLOW_DUPLICATE): the sweep only starts requests
 * still unfulfilled, and the fulfilment is idempotent per request (row lock, `fulfilled_at`, one data package per
 * request), so a new run does what is left and nothing twice.
 */
export async function startPrivacyRequestWorkflow(input: PrivacyRequestInput): Promise<'started' | 'existing'> {
  const attributes = [
    { key: AccountIdKey, value: input.accountId },
    { key: JobKindKey, value: commercePrivacyRequestContract.jobKind },
    ...(input.connectionId ? [{ key: ConnectionIdKey, value: input.connectionId }] : []),
  ];
  try {
    await startChild(commercePrivacyRequest, {
      workflowId: commercePrivacyWorkflowId(input.requestId),
      args: [input],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      typedSearchAttributes: attributes,
    });
    return 'started';
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return 'existing';
    throw err;
  }
}

/**
 * For the shop's entity workflow, after a delivery was handled: when the handler logged a privacy request
 * (`detail.compliance_request_id`), its fulfilment starts now. Never throws — the shop's delivery stream must not
 * stall on it; a request whose start failed is picked up by the hourly compliance sweep.
 */
export async function startPrivacyFulfilmentOf(
  delivery: { accountId: string; connectionId: string },
  detail: Record<string, unknown> | undefined,
): Promise<void> {
  const requestId = detail?.compliance_request_id;
  if (typeof requestId !== 'string') return;
  try {
    await startPrivacyRequestWorkflow({ accountId: delivery.accountId, connectionId: delivery.connectionId, requestId });
  } catch (err) {
    if (isCancellation(err)) throw err;
    log.warn('privacy request workflow could not be started; the compliance sweep will', { requestId, error: (err as Error).name });
  }
}
