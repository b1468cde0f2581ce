import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { startEventDeliveries } from './emailEventDelivery';
import { REDISPATCH_MIN_AGE_MS, type RedispatchInput, type RedispatchSummary } from './emailEventRedispatch.contract';

const { listUndispatchedEmailEvents } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * The `email-event-redispatch` sweep (every minute): events older than a minute whose delivery workflow never
 * started (Temporal was unreachable when they were emitted) get it now. A run that exists already is left alone.
 */
export async function emailEventRedispatch(input: RedispatchInput = {}): Promise<RedispatchSummary> {
  const events = await listUndispatchedEmailEvents({ minAgeMs: REDISPATCH_MIN_AGE_MS, limit: input.limit ?? 500 });
  const started = await startEventDeliveries(events);
  return { found: events.length, ...started };
}
