// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code.
import { MAX_URL_LENGTH } from '../../webhookKit/endpointUrl';

export const listEmailWebhooksDescription = 'Answers `{ data, total, page, limit }`; never the signing secrets.';

export const updateEmailWebhookDescription = 'Partial: an absent field stays. The signing secret does not change.';

export const testEmailWebhookDescription =
  'Records an `email.test` event (`data.webhook_endpoint_id` names the endpoint) and starts its delivery workflow, signed and retried ' +
  'like any event; answers 202 with the event and job ids. Follow the outcome on `GET …/{id}/deliveries`.';

export const webhookEndpointDisabledError = 'The endpoint is disabled; nothing is sent.';

export const temporalUnavailableError =
  'The workflow could not be started now; the recorded event is delivered by the re-dispatch sweep within about two minutes.';

export const listEmailWebhookDeliveriesDescription =
  'One delivery per event sent to this endpoint: `status` pending (retrying), delivered or failed; `attempts`, the last HTTP status and error.';

export const urlRule = `https URL of at most ${MAX_URL_LENGTH} characters, without credentials, on a public host (http is accepted only for a loopback host when the service runs with FETCH_ALLOW_PRIVATE_HOSTS, as in tests and the sandbox).`;

export const deliveryRules =
  'Every event is POSTed as JSON `{ type, created_at, data }` with Standard Webhooks headers: `webhook-id` (the event id, the same on every retry), ' +
  '`webhook-timestamp` (unix seconds of the attempt) and `webhook-signature: v1,<base64 HMAC-SHA256>` over `<webhook-id>.<webhook-timestamp>.<exact body>`, ' +
  'keyed with the base64-decoded part of the secret after `whsec_` (what Standard Webhooks libraries do). A 2xx answer is delivered; a 4xx other than 408 and 429 ' +
  'fails at once; anything else (5xx, 408, 429, 3xx — redirects are not followed — timeouts after EMAIL_WEBHOOK_TIMEOUT_MS, network errors) is retried with ' +
  'exponential backoff from 30 seconds doubling to 1 hour, for 24 hours, by a Temporal workflow `email-event:<event_id>`.';

export const validationFailedError = `\`body.url\` breaks the URL rule: ${urlRule}`;

export const createEmailWebhookDescription =
  `Subscribes \`url\` to \`events\`. The answer carries the signing secret once; it is stored sealed (AES-256-GCM) and never shown again. ${deliveryRules} ` +
  'Not idempotent: a replayed response would have to keep the secret in the clear.';
