import { z } from 'zod';
import { read, write } from '../define';
import { confirm, id, obj, paging, siteId } from '../params';

const triggerType = z.enum([
  'form_submission',
  'site_publish',
  'page_created',
  'page_metadata_updated',
  'page_deleted',
  'ecomm_new_order',
  'ecomm_order_changed',
  'ecomm_inventory_changed',
  'collection_item_created',
  'collection_item_changed',
  'collection_item_deleted',
  'collection_item_published',
  'collection_item_unpublished',
  'comment_created',
]);
// The reference's WebhookFilter: the form to be notified about, for the form_submission trigger only.
const webhookFilter = z.strictObject({ name: z.string().min(1) });
const webhookBody = { triggerType, url: z.string().url(), filter: webhookFilter.optional() };
const filterOnFormsOnly = (p: { triggerType?: unknown; filter?: unknown }) => p.filter === undefined || p.triggerType === 'form_submission';

export const tokenOperations = [
  read('token_introspect', 'token', 'GET', '/token/introspect', obj({})),
  read('token_authorized_by', 'token', 'GET', '/token/authorized_by', obj({}), { scopes: ['authorized_user:read'], oauth: true }),
];

export const siteOperations = [
  read('site_list', 'site', 'GET', '/sites', obj({}), { scopes: ['sites:read'] }),
  read('site_get', 'site', 'GET', '/sites/{site_id}', obj(siteId), { scopes: ['sites:read'] }),
  read('site_domains_list', 'site', 'GET', '/sites/{site_id}/custom_domains', obj(siteId), { scopes: ['sites:read'] }),
  write(
    'site_publish',
    'site',
    'POST',
    '/sites/{site_id}/publish',
    obj({ ...siteId, ...confirm, customDomains: z.array(id).optional(), publishToWebflowSubdomain: z.boolean().optional() }),
    { scopes: ['sites:write'], confirm: true, idempotent: false },
  ),
  read('activity_log_list', 'activity_log_list', 'GET', '/sites/{site_id}/activity_logs', obj({ ...siteId, ...paging }), {
    scopes: ['site_activity:read'],
    enterprise: true,
  }),
];

export const webhookOperations = [
  read('webhook_list', 'webhook', 'GET', '/sites/{site_id}/webhooks', obj(siteId), { scopes: ['sites:read'] }),
  read('webhook_get', 'webhook', 'GET', '/webhooks/{webhook_id}', obj({ ...siteId, webhook_id: id }), { scopes: ['sites:read'] }),
  write(
    'webhook_create',
    'webhook',
    'POST',
    '/sites/{site_id}/webhooks',
    obj({ ...siteId, ...confirm, ...webhookBody }).refine(filterOnFormsOnly, {
      message: 'a filter is only for the form_submission trigger',
      path: ['filter'],
    }),
    { scopes: ['sites:write'], confirm: true, oauth: true },
  ),
  // The platform has no webhook update (no PATCH /webhooks/{id}): a composite lists the site's webhooks, registers the
  // replacement with the same trigger, then deletes the old one. The answer is the new registration, under a new id.
  write(
    'webhook_update',
    'webhook',
    'POST',
    '/sites/{site_id}/webhooks',
    obj({ ...siteId, ...confirm, webhook_id: id, url: z.string().url().optional(), filter: webhookFilter.optional() }).refine(
      (p) => p.url !== undefined || p.filter !== undefined,
      { message: 'name a new url or filter', path: ['url'] },
    ),
    {
      scopes: ['sites:write'],
      confirm: true,
      oauth: true,
      lock: 'webhook_id',
      composite: 'webhook_replace',
      note: 'The platform has no webhook update: this registers the replacement (same trigger, new url and/or filter) and then deletes the old registration; the answer carries the new id. A failed delete is 424 webhook_update_incomplete.',
    },
  ),
  // No row lock: the handler holds the per-site advisory lock that webhook registration also takes (spec, Registration rules).
  write('webhook_delete', 'webhook', 'DELETE', '/webhooks/{webhook_id}', obj({ ...siteId, ...confirm, webhook_id: id }), {
    scopes: ['sites:write'],
    confirm: true,
  }),
];
