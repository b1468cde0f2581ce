// OpenAPI prose of the routes in this folder, kept out of the route declarations so they read as code. The prose every
// endpoint registry shares (URL rule, list, update, deliveries) is in webhookKit/endpointRoutes.ts.

export const testEmailWebhookDescription =
  'Records an `email.test` event (`data.webhook_endpoint_id` names the endpoint) and starts its delivery workflow, signed and retried ' +
  'like any event; answers 202 with the event and job ids. Follow the outcome on `GET …/{id}/deliveries`.';

export const temporalUnavailableError =
  'The workflow could not be started now; the recorded event is delivered by the re-dispatch sweep within about two minutes.';

export const deliveryRules =
  'Every event is POSTed as JSON `{ type, created_at, data }` with Standard Webhooks headers: `webhook-id` (the event id, the same on every retry), ' +
  '`webhook-timestamp` (unix seconds of the attempt) and `webhook-signature: v1,<base64 HMAC-SHA256>` over `<webhook-id>.<webhook-timestamp>.<exact body>`, ' +
  'keyed with the base64-decoded part of the secret after `whsec_` (what Standard Webhooks libraries do). A 2xx answer is delivered; a 4xx other than 408 and 429 ' +
  'fails at once; anything else (5xx, 408, 429, 3xx — redirects are not followed — timeouts after EMAIL_WEBHOOK_TIMEOUT_MS, network errors) is retried with ' +
  'exponential backoff from 30 seconds doubling to 1 hour, for 24 hours, by a Temporal workflow `email-event:<event_id>`.';

export const createEmailWebhookDescription =
  `Subscribes \`url\` to \`events\`. The answer carries the signing secret once; it is stored sealed (AES-256-GCM) and never shown again. ${deliveryRules} ` +
  'Not idempotent: a replayed response would have to keep the secret in the clear.';
