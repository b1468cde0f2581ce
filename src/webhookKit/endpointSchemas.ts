import { z } from 'zod';
import { optionalText } from '../http/fields';
import { pageQuery } from '../http/pagination';
import { MAX_URL_LENGTH } from './endpointUrl';
import type { DeliveryRow, EndpointRow } from './endpointStore';

export const urlRule = `https URL of at most ${MAX_URL_LENGTH} characters, without credentials, on a public host (http is accepted only for a loopback host when the service runs with FETCH_ALLOW_PRIVATE_HOSTS, as in tests and the sandbox).`;

const urlField = z.string().trim().min(1, { error: 'must not be empty' }).describe(urlRule);

const eventsField = <T extends readonly [string, ...string[]]>(eventTypes: T) =>
  z
    .array(z.enum(eventTypes))
    .min(1, { error: 'must name at least one event type' })
    .refine((list) => new Set(list).size === list.length, { error: 'must not repeat an event type' })
    .describe(`Event types to receive: a non-empty subset of ${eventTypes.join(', ')}.`);

/** The bodies of create and patch, for an area's subscribable event types. */
export function endpointBodies<T extends readonly [string, ...string[]]>(eventTypes: T) {
  const events = eventsField(eventTypes);
  return {
    createBody: z.strictObject({
      url: urlField,
      events,
      description: optionalText(500).optional().describe('Up to 500 characters.'),
    }),
    patchBody: z.strictObject({
      url: urlField.optional(),
      events: events.optional(),
      description: optionalText(500).optional().describe('null or "" clears it.'),
      enabled: z.boolean().optional().describe('A disabled endpoint receives nothing; retries in progress stop at their next attempt.'),
    }),
  };
}

export const pagedQuery = z.strictObject({ ...pageQuery });

export const endpointSchema = z
  .object({
    id: z.string(),
    object: z.literal('webhook_endpoint'),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    enabled: z.boolean(),
    created_at: z.string().describe('ISO 8601'),
    updated_at: z.string().describe('ISO 8601'),
  })
  .meta({ id: 'WebhookEndpoint' });

export const createdSchema = endpointSchema
  .extend({
    secret: z.string().describe('The signing secret `whsec_<base64 of 32 bytes>`, shown only in this response.'),
  })
  .meta({ id: 'WebhookEndpointWithSecret' });

export const deliverySchema = z
  .object({
    id: z.string(),
    event_id: z.string().describe('Also the `webhook-id` header of every attempt.'),
    event_type: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.number().int(),
    last_status: z.number().int().nullable().describe('HTTP status of the last attempt; null when it got no answer.'),
    last_error: z.string().nullable(),
    delivered_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'WebhookDelivery' });

export const toEndpointJson = (e: EndpointRow): z.infer<typeof endpointSchema> => ({
  id: e.id,
  object: 'webhook_endpoint',
  url: e.url,
  events: e.events,
  description: e.description,
  enabled: e.enabled,
  created_at: e.created_at.toISOString(),
  updated_at: e.updated_at.toISOString(),
});

export const toDeliveryJson = (d: DeliveryRow): z.infer<typeof deliverySchema> => ({
  id: d.id,
  event_id: d.event_id,
  event_type: d.event_type,
  status: d.status,
  attempts: d.attempts,
  last_status: d.last_status,
  last_error: d.last_error,
  delivered_at: d.delivered_at?.toISOString() ?? null,
  created_at: d.created_at.toISOString(),
  updated_at: d.updated_at.toISOString(),
});
