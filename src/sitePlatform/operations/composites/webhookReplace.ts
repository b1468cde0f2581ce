import { ApiError } from '../../../http/errors';
import type { CompositeContext } from './types';

interface Registration {
  id: string;
  triggerType: string;
  url: string;
  filter?: Record<string, unknown> | null;
}

const incomplete = (oldId: string, newId: string) =>
  new ApiError(
    424,
    'webhook_update_incomplete',
    `the new registration ${newId} is in place but the old one ${oldId} could not be deleted; run webhook_delete on ${oldId} so events are not delivered twice`,
    {
      details: { old_webhook_id: oldId, new_webhook_id: newId, step: 'delete' },
    },
  );

/**
 * webhook_update. The platform has no update for a webhook (its reference lists list, create, get and delete only), so
 * the registration is replaced the way the platform allows: find it in the site's list (so a webhook of another site
 * is not found), create the new registration with the same trigger and the new url and/or filter, then delete the
 * old one — create first, delete last, so no event goes undelivered in between. Answers the new registration (its id
 * differs). A failed delete is 424 webhook_update_incomplete naming both ids.
 */
export async function replaceWebhook({ client, params }: CompositeContext) {
  const site = encodeURIComponent(String(params.site_id));
  const oldId = String(params.webhook_id);
  const list = await client.request<{ webhooks?: Registration[] }>({ method: 'GET', base: 'v2', path: `/sites/${site}/webhooks` });
  const old = list.body?.webhooks?.find((h) => h.id === oldId);
  if (!old) throw new ApiError(404, 'webhook_not_found', `the site has no webhook ${oldId}`);
  if (params.filter !== undefined && old.triggerType !== 'form_submission') {
    throw new ApiError(400, 'validation_failed', `webhook ${oldId} is a ${old.triggerType} webhook; a filter is only for form_submission`, {
      errors: [{ path: 'filter', message: 'a filter is only for the form_submission trigger' }],
    });
  }

  const filter = params.filter !== undefined ? params.filter : old.filter;
  const body: Record<string, unknown> = { triggerType: old.triggerType, url: params.url ?? old.url };
  if (filter) body.filter = filter;
  const created = (await client.request<Registration>({ method: 'POST', base: 'v2', path: `/sites/${site}/webhooks`, body })).body;
  if (!created?.id) throw new ApiError(502, 'platform_upstream', 'the site platform registered the webhook without an id');

  try {
    await client.request({ method: 'DELETE', base: 'v2', path: `/webhooks/${encodeURIComponent(oldId)}` });
  } catch (err) {
    // Already gone is what the delete wanted.
    if (!(err instanceof ApiError && err.status === 404)) throw incomplete(oldId, created.id);
  }
  return created;
}
