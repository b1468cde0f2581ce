import { accountOf } from '../../auth/authenticate';
import type { RouteDef } from '../../http/route';
import { endpointRoutes } from '../../webhookKit/endpointRoutes';
import { EMAIL_EVENT_TYPES } from './events';
import * as webhooks from './service';
import * as docs from './docs';

/** Webhook endpoints of the email API (scope email:webhooks). */
export function emailWebhookRoutes(): RouteDef[] {
  return endpointRoutes({
    base: '/v1/email/webhooks',
    tags: ['Email webhooks'],
    auth: { kind: 'emailKey', scope: 'email:webhooks' },
    accountOf,
    eventTypes: EMAIL_EVENT_TYPES,
    service: webhooks,
    operationIds: {
      create: 'createEmailWebhook',
      list: 'listEmailWebhooks',
      get: 'getEmailWebhook',
      update: 'updateEmailWebhook',
      delete: 'deleteEmailWebhook',
      test: 'testEmailWebhook',
      deliveries: 'listEmailWebhookDeliveries',
    },
    docs: {
      createSummary: 'Create a webhook endpoint.',
      create: docs.createEmailWebhookDescription,
      test: docs.testEmailWebhookDescription,
      notFound: "for the key's account",
      testJobId: 'The delivery workflow `email-event:<event_id>`.',
      temporalUnavailable: docs.temporalUnavailableError,
    },
  });
}
