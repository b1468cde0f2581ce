/** The alert events account webhook endpoints subscribe to. */
export const ALERT_EVENT_TYPES = ['job.completed', 'job.failed', 'sweep.partial', 'privacy_request.overdue', 'inbox.urgent'] as const;
export type AlertEventType = (typeof ALERT_EVENT_TYPES)[number];

/** Sent by `POST /api/webhook-endpoints/{id}/test` to that one endpoint; nobody subscribes to it. */
export const ALERT_TEST_EVENT_TYPE = 'webhook_endpoint.test';
