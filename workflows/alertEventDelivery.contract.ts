import { defineWorkflow } from './defineWorkflow';
import type { DeliveryRetryPolicy, DeliveryStatus } from './webhookRetryPolicy';

/**
 * The alert event delivery workflow's contract (account webhooks and job callbacks, src/alerts): ids, input, result,
 * and the job-closed activity's input the job events interceptor sends. No I/O: the bundle and `src/` import it.
 */

export interface AlertEventDeliveryInput {
  accountId: string;
  eventId: string;
  /** Tests shorten the backoff to milliseconds; production runs use the default (30 s doubling to 1 h, for 24 h). */
  retry?: Partial<DeliveryRetryPolicy>;
}

export interface AlertEventDeliveryResult {
  event_id: string;
  /** `endpoint_id` null: the delivery to the job's `callback_url`. */
  deliveries: Array<{ delivery_id: string; endpoint_id: string | null; status: DeliveryStatus | 'gone'; attempts: number }>;
}

export const alertEventDeliveryContract = defineWorkflow<[AlertEventDeliveryInput], AlertEventDeliveryResult>(
  'alertEventDelivery',
  'alert-event',
);

/** One workflow per event: a repeated start (the relay) attaches to it instead of delivering twice. */
export const alertEventWorkflowId = (eventId: string) => `${alertEventDeliveryContract.jobKind}:${eventId}`;

/** What the job events interceptor reports when an account's job closes (`recordJobClosed`). */
export interface JobClosedInput {
  accountId: string;
  job: {
    id: string;
    kind: string;
    /** `terminated` / `timed_out`: closed by the server (src/jobs/serverClosedJobs.ts), reported as job.failed. */
    status: 'completed' | 'failed' | 'terminated' | 'timed_out';
    run_id: string;
    created_at: string | null;
    closed_at: string;
  };
  /** The workflow result when completed (trimmed by the activity). */
  result?: unknown;
  /** When failed: the ApplicationFailures of the failure's cause chain, outermost first (the activity picks the coded one). */
  failures?: Array<{ type: string | null; message: string }>;
  /** The job's memo `callbackUrl`, when it was started with a `callback_url`. */
  callbackUrl?: string;
}
