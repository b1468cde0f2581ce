// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code. The prose every
// endpoint registry shares (URL rule, list, update, deliveries) is in webhookKit/endpointRoutes.ts.
import { ALERT_EVENT_TYPES, ALERT_TEST_EVENT_TYPE } from './events';
import { MAX_RESULT_JSON } from './jobEvent';

export const eventTypes =
  `Event types: \`job.completed\` and \`job.failed\` (a job of the account — research, images, case study, AI turn, email batch … — ` +
  "completed or failed; `data.job` is `{ id, kind, status, run_id, created_at, closed_at }`, with `data.result` (the job's result as `GET /api/jobs/{id}` shows it, " +
  `left out with \`result_truncated: true\` beyond ${MAX_RESULT_JSON} bytes of JSON) or \`data.error\` \`{ code, message }\`; canceled jobs, and runs ` +
  'terminated or timed out by Temporal, send nothing), `inbox.urgent` (an urgent inbox item was raised: `data.item`), `privacy_request.overdue` ' +
  "(a shop privacy request is unfulfilled after 30 days: `data.item` with its request), `sweep.partial` (a sweep left some of this account's work " +
  `unfinished: \`data.sweep\`, \`data.unfinished\`). Subscribable: ${ALERT_EVENT_TYPES.join(', ')}.`;

export const deliveryRules =
  'Every event is POSTed as JSON `{ type, created_at, data }` with Standard Webhooks headers: `webhook-id` (the event id, the same on every retry), ' +
  '`webhook-timestamp` (unix seconds of the attempt) and `webhook-signature: v1,<base64 HMAC-SHA256>` over `<webhook-id>.<webhook-timestamp>.<exact body>`, ' +
  'keyed with the base64-decoded part of the secret after `whsec_` (what Standard Webhooks libraries do) — exactly as the email webhooks. A 2xx answer is ' +
  'delivered; a 4xx other than 408 and 429 fails at once; anything else (5xx, 408, 429, 3xx — redirects are not followed — timeouts after ' +
  'ALERT_WEBHOOK_TIMEOUT_MS, network errors) is retried with exponential backoff from 30 seconds doubling to 1 hour, for 24 hours, by a Temporal workflow ' +
  '`alert-event:<event_id>`.';

export const createWebhookEndpointDescription =
  `Subscribes \`url\` to \`events\`. The answer carries the signing secret once; it is stored sealed (AES-256-GCM) and never shown again. ${eventTypes} ${deliveryRules} ` +
  'Not idempotent: a replayed response would have to keep the secret in the clear. Owners and admins only.';

export const testWebhookEndpointDescription =
  `Records a \`${ALERT_TEST_EVENT_TYPE}\` event (\`data.webhook_endpoint_id\` names the endpoint) and starts its delivery workflow, signed and retried ` +
  'like any event; answers 202 with the event and job ids. Follow the outcome on `GET …/{id}/deliveries`.';

export const temporalUnavailableError =
  'The workflow could not be started now; the recorded event is delivered by the alert relay of the API once Temporal answers.';

export const rotateCallbackSecretDescription =
  "Creates (or replaces) the account's callback signing secret `whsec_…` and shows it once. A job started with `callback_url` gets its " +
  '`job.completed` or `job.failed` event POSTed to that URL, signed with this secret and retried exactly like webhook endpoints (' +
  'Standard Webhooks headers, backoff for 24 hours). Create the secret before the first job with a `callback_url`: a job that needs one while none ' +
  'exists creates one nobody has seen, and only a rotation shows a secret. The previous secret stops signing at once (retries in progress sign with the new one).';

export const listCallbackDeliveriesDescription =
  'The deliveries to job `callback_url`s, newest first (the event is `job.completed` or `job.failed`; `data.job.id` names the job).';
